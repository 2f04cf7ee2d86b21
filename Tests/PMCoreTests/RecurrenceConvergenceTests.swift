import PMCore
import PMTestSupport
import Testing

/// Recurring tasks converge without a duplicate (issue 48): four copies,
/// each on its own day (clocks up to a day apart, days passing at random),
/// complete occurrences — often the same one on two copies, offline —
/// reopen them, undo completions, change and stop rules, rename and
/// delete, while sync misbehaves (partial, repeated, reversed, shuffled
/// deliveries; some events reach a copy only at the end). Then everyone
/// receives everything: every copy writes the same bytes; no occurrence is
/// ever made twice (each task done has one next occurrence, whose id says
/// which); and no completion is lost — a task done stays done, unless an
/// undo took it back or someone who saw it changed it since.
@Suite struct RecurrenceConvergenceTests {
    @Test(arguments: 0..<40)
    func recurringTasksConvergeWithoutDuplicates(seed: Int) throws {
        var world = RecurrenceWorld(seed: seed)
        for _ in 0..<70 { world.step() }
        world.deliverEverything()
        let copies = world.copies
        for copy in copies.dropFirst() {
            #expect(Set(copy.events.map(\.id)) == Set(copies[0].events.map(\.id)), "seed \(seed): every copy has every event")
            #expect(copy.boardBytes == copies[0].boardBytes, "seed \(seed): copy \(copy.author) writes other bytes")
        }
        var again = copies[1]
        let before = again.boardBytes
        again.receive(world.made.shuffled(using: &world.random))
        #expect(again.boardBytes == before, "seed \(seed): receiving everything again changes nothing")
        let events = FoldedTasks.inMergeOrder(copies[0].events)
        let tasks = copies[0].tasks
        try checkEveryOccurrenceHasOnePredecessor(events, seed: seed)
        checkNoCompletionIsLost(events, tasks, seed: seed)
        #expect(world.completions > 0, "seed \(seed): nothing was completed")
    }

    /// Two people complete the same occurrence offline, each making its next
    /// one; one of them starts it before they sync. After sync: one card,
    /// in DOING, with no conflict — the other's making of it in TODO is the
    /// same making, which the start saw.
    @Test func twoMakingsOfOneOccurrenceAreOne() throws {
        var ana = SimulatedReplica(number: 1, author: "ana", signed: true)
        var lee = SimulatedReplica(number: 2, author: "lee", wall: 1_795_000_500_000, signed: true)
        let today = ana.today
        let due = today.adding(days: 1)
        _ = ana.changeStep { board, makeID, user, time in
            _ = try board.add(
                title: "Standup", due: due, recur: Recurrence(.weekly), id: makeID(), eventID: makeID(), by: user, at: time)
        }
        lee.receive(ana.events)
        let first = try #require(ana.tasks.first?.id)
        #expect(ana.complete(first, today: today).count == 2)
        #expect(lee.complete(first, today: today).count == 2)
        let next = Series.nextID(after: first)
        #expect(ana.move(next, to: .doing) != nil)
        ana.receive(lee.events)
        lee.receive(ana.events)
        #expect(ana.boardBytes == lee.boardBytes)
        let card = try #require(ana.tasks.first { $0.id == next })
        #expect(ana.tasks.count == 2, "one next occurrence")
        #expect(card.state == .doing && card.conflicts.isEmpty, "\(card.state) \(card.conflicts)")
    }

    /// Every occurrence made names, by its id, the task whose completion
    /// made it, and is made only with that completion (in its step): so no
    /// task ever has two next occurrences.
    func checkEveryOccurrenceHasOnePredecessor(_ events: [Event], seed: Int) throws {
        var byPredecessor: [TaskID: TaskID] = [:]
        for (index, event) in events.enumerated() where event.kind == .created && event.fields["recur"] != nil {
            guard ImportRules.isImportedID(event.task) else { continue }  // a series' first task: a random id
            // The step's move of the predecessor to DONE, just before, on the same copy.
            let previous = events[..<index].last { $0.replica == event.replica && $0.kind == .moved }
            let predecessor = try #require(previous?.task, "seed \(seed): an occurrence made without a completion")
            #expect(Series.nextID(after: predecessor) == event.task, "seed \(seed): an occurrence not derived from its task")
            if let known = byPredecessor[predecessor] {
                #expect(known == event.task, "seed \(seed): two next occurrences of one task")
            }
            byPredecessor[predecessor] = event.task
        }
    }

    /// A completion stands unless an undo took it back or a change made by
    /// someone who had seen it (a reopening, a deletion) replaced it; while it
    /// stands, the task shows DONE (or DONE among a conflict's values).
    func checkNoCompletionIsLost(_ events: [Event], _ tasks: [BoardTask], seed: Int) {
        let undone = Set(events.compactMap(\.undoes))
        for event in events where event.kind == .moved && event.fields["state"]?.new == .string("done") {
            guard !undone.contains(event.id) else { continue }
            let replaced = events.contains { later in
                later.task == event.task && later.id != event.id && (later.seen ?? []).contains(event.id)
            }
            guard !replaced else { continue }
            guard let task = tasks.first(where: { $0.id == event.task }) else {
                Issue.record("seed \(seed): a task done is gone without a deletion that saw it")
                continue
            }
            let shown = task.state == .done || (task.conflicts["state"] ?? []).contains(.string("done"))
            #expect(shown, "seed \(seed): the completion \(event.id) of '\(task.title)' is lost")
        }
    }
}

/// Four signed copies of a board with recurring tasks, driven by a seed.
struct RecurrenceWorld {
    var random: SeededGenerator
    var copies: [SimulatedReplica]
    var made: [Event] = []
    var late: [Set<TaskID>]
    var completions = 0
    var counter = 0

    init(seed: Int) {
        random = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 48)
        let skews: [Int64] = [0, -86_400_000, 3_600_000, 86_400_000 - 60_000]
        copies = (1...4).map {
            SimulatedReplica(number: $0, author: "p\($0)", wall: 1_795_000_000_000 + skews[$0 - 1], signed: true)
        }
        late = Array(repeating: [], count: 4)
        let rules = ["FREQ=WEEKLY;BYDAY=MO", "FREQ=DAILY;INTERVAL=2", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYMONTHDAY=31"]
        for (number, text) in rules.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)).enumerated() {
            let rule = Recurrence(rrule: text)
            let today = copies[0].today
            let due = rule?.occurrence(after: today, start: today)
            record(
                copies[0].changeStep { board, makeID, user, time in
                    _ = try board.add(
                        title: "Series \(number)", due: due, recur: rule, id: makeID(), eventID: makeID(), by: user, at: time)
                }, by: 0)
        }
        for index in copies.indices.dropFirst() { copies[index].receive(copies[0].events) }
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func record(_ events: [Event], by who: Int) {
        for event in events {
            #expect(EventProblem.check(event, replica: nil, now: Int64.max / 2) == nil, "\(event.kind) refused")
        }
        made += events
        guard chance(8) else { return }
        for event in events {
            for index in copies.indices where index != who && chance(50) { late[index].insert(event.id) }
        }
    }

    /// One copy does something; now and then its day turns, or sync runs.
    mutating func step() {
        let who = Int.random(in: 0..<copies.count, using: &random)
        // Days pass for everyone (a copy's clock stays within a day of the others').
        if chance(8) {
            let days = Int64(Int.random(in: 1...20, using: &random)) * 86_400_000
            for index in copies.indices { copies[index].wall += days }
        }
        record(act(who), by: who)
        if chance(35) { sync() }
    }

    mutating func act(_ who: Int) -> [Event] {
        let shown = copies[who].tasks
        guard let task = shown.randomElement(using: &random) else { return copies[who].undoStep() }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<40:
            guard task.state != .done else { return [] }
            let made = copies[who].complete(task.id, today: copies[who].today)
            if !made.isEmpty { completions += 1 }
            return made
        case 40..<52: return copies[who].move(task.id, to: .todo).map { [$0] } ?? []
        case 52..<70: return copies[who].undoStep()
        case 70..<80:
            let rule = Recurrence(
                [.daily, .weekly, .monthly].randomElement(using: &random)!, interval: Int.random(in: 1...3, using: &random))
            return copies[who].changeStep { board, makeID, user, time in
                try board.setRecurrence(task.id, rule, eventID: makeID(), by: user, at: time)
            }
        case 80..<85:
            return copies[who].changeStep { board, makeID, user, time in
                try board.setRecurrence(task.id, nil, eventID: makeID(), by: user, at: time)
            }
        case 85..<90:
            counter += 1
            return copies[who].edit(task.id, .init(title: "Renamed \(counter)")).map { [$0] } ?? []
        case 90..<95:
            // A deadline with a time (issue 48, part 1), or a whole day, or none.
            let day = copies[who].today.adding(days: Int.random(in: 0...9, using: &random))
            let zone = ["Europe/Paris", "Asia/Seoul", "UTC", "+05:45"].randomElement(using: &random)!
            let time = chance(60) ? DueTime(hour: Int.random(in: 0...23, using: &random), minute: 30, zone: zone) : nil
            return copies[who].edit(task.id, .init(due: .some(chance(10) ? nil : day), dueTime: time)).map { [$0] } ?? []
        default: return copies[who].delete(task.id).map { [$0] } ?? []
        }
    }

    /// One copy sends another what it has, as a faulty transport would.
    mutating func sync() {
        let from = Int.random(in: 0..<copies.count, using: &random)
        let to = Int.random(in: 0..<copies.count, using: &random)
        copies[to].receive(faultyDelivery(copies[from].events.filter { !late[to].contains($0.id) }, using: &random))
    }

    mutating func deliverEverything() {
        let all = made
        for index in copies.indices {
            copies[index].receive(index % 2 == 0 ? all : all.shuffled(using: &random))
        }
    }
}

extension SimulatedReplica {
    /// This copy's day, from its clock.
    var today: CivilDate { CivilDate(clampingDaysSince1970: Int(wall / 86_400_000)) }
}
