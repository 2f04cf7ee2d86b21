import PMCore
import PMTestSupport
import Testing

/// The merge rules of DESIGN.md §9, as pure functions over events: copies
/// that made changes apart and then saw each other's events agree, byte for
/// byte, and keep every value someone wrote.
@Suite struct MergeTests {
    /// Three copies that started from the same task.
    func start() -> (SimulatedReplica, SimulatedReplica, SimulatedReplica, TaskID) {
        var a = SimulatedReplica(number: 1, author: "camille")
        var b = SimulatedReplica(number: 2, author: "ji-woo")
        var c = SimulatedReplica(number: 3, author: "sam")
        let id = a.add("Tâche commune")!
        b.receive(a.events)
        c.receive(a.events)
        return (a, b, c, id)
    }

    /// Both copies, after exchanging everything, write the same bytes; returns the task.
    func exchange(_ a: inout SimulatedReplica, _ b: inout SimulatedReplica, _ id: TaskID) -> BoardTask? {
        let (fromA, fromB) = (a.events, b.events)
        a.receive(fromB)
        b.receive(fromA)
        #expect(
            a.boardBytes == b.boardBytes, "the two copies differ: \(String(decoding: a.boardBytes, as: UTF8.self).prefix(600))")
        return a.tasks.first { $0.id == id }
    }

    @Test func disjointFieldsBothApply() {
        var (a, b, _, id) = start()
        a.edit(id, .init(title: "Renamed"))
        b.edit(id, .init(body: "Details"))
        let task = exchange(&a, &b, id)
        #expect(task?.title == "Renamed" && task?.body == "Details")
        #expect(task?.conflicts.isEmpty == true)
    }

    @Test func theSameFieldKeepsEveryValueAsAConflict() {
        var (a, b, _, id) = start()
        a.edit(id, .init(title: "From A"))
        b.edit(id, .init(title: "From B"))
        let task = exchange(&a, &b, id)
        let shown = task?.title ?? ""
        let others = task?.conflicts["title"] ?? []
        #expect(Set([shown] + others.compactMap { if case .string(let t) = $0 { t } else { nil } }) == ["From A", "From B"])
        #expect(others.count == 1)
        // Picking a value (even the one shown) resolves it on every copy.
        a.edit(id, .init(title: shown))
        let picked = exchange(&a, &b, id)
        #expect(picked?.title == shown && picked?.conflicts.isEmpty == true)
    }

    @Test func equalValuesAndCanonicallyEqualTextAreNoConflict() {
        var (a, b, _, id) = start()
        a.edit(id, .init(title: "Same"))
        b.edit(id, .init(title: "Same"))
        #expect(exchange(&a, &b, id)?.conflicts.isEmpty == true)
        // NFC and NFD: the same words.
        a.edit(id, .init(title: "T\u{E2}che \u{D55C}"))
        b.edit(id, .init(title: "Ta\u{302}che \u{1112}\u{1161}\u{11AB}"))
        let task = exchange(&a, &b, id)
        #expect(task?.conflicts.isEmpty == true, "\(String(describing: task?.conflicts))")
    }

    @Test func editVersusDeleteRestoresEitherWayThenDeletingAgainSticks() {
        for deleterFirst in [true, false] {
            var (a, b, _, id) = start()
            if deleterFirst {
                a.delete(id)
                b.edit(id, .init(body: "still needed"))
            } else {
                b.edit(id, .init(body: "still needed"))
                a.wall += 10_000
                a.delete(id)
            }
            let task = exchange(&a, &b, id)
            #expect(task?.body == "still needed" && task?.restored == true, "deleter first: \(deleterFirst)")
            a.delete(id)
            #expect(exchange(&a, &b, id) == nil, "deleting again sticks")
        }
    }

    @Test func deleteVersusDeleteAndSameTitleCreates() {
        var (a, b, _, id) = start()
        a.delete(id)
        b.delete(id)
        #expect(exchange(&a, &b, id) == nil)
        let first = a.add("Fix login")!
        let second = b.add("Fix login")!
        _ = exchange(&a, &b, first)
        #expect(a.tasks.filter { $0.title == "Fix login" }.map(\.id).sorted() == [first, second].sorted())
    }

    @Test func moveVersusMoveIsAConflictOnTheColumn() {
        var (a, b, _, id) = start()
        a.move(id, to: .doing)
        b.move(id, to: .done)
        let task = exchange(&a, &b, id)
        #expect(task?.conflicts["state"]?.count == 1)
        b.move(id, to: task?.state ?? .todo)
        #expect(exchange(&a, &b, id)?.conflicts.isEmpty == true, "moving to the shown column picks it")
    }

    /// Undo after a sync takes back only the author's own change; undo
    /// against a colleague's later change on the same field is a kept conflict.
    @Test func undoSyncsAndNeverClobbersAColleague() {
        var (a, b, _, id) = start()
        a.edit(id, .init(title: "A's title"))
        _ = exchange(&a, &b, id)
        b.edit(id, .init(body: "B's body"))
        _ = exchange(&a, &b, id)
        a.undo()
        var task = exchange(&a, &b, id)
        #expect(task?.title == "Tâche commune" && task?.body == "B's body")
        // Concurrent: A undoes a move while B moves the task elsewhere.
        a.move(id, to: .doing)
        _ = exchange(&a, &b, id)
        a.undo()
        b.move(id, to: .done)
        task = exchange(&a, &b, id)
        let values =
            [task?.state.rawValue ?? ""]
            + (task?.conflicts["state"] ?? []).compactMap { if case .string(let t) = $0 { t } else { nil } }
        #expect(Set(values) == ["todo", "done"], "both the undo's and the colleague's column are kept: \(values)")
    }

    /// A copy whose clock is a day behind: its change made after seeing a
    /// colleague's still orders after it (the hybrid clock), so it wins
    /// without a conflict; a day ahead cannot bury a later change either.
    @Test func aClockADayOffStillOrdersCausally() {
        var (a, b, _, id) = start()
        b.wall -= 86_400_000
        a.edit(id, .init(title: "First"))
        b.receive(a.events)
        b.edit(id, .init(title: "Second, seen First"))
        let task = exchange(&a, &b, id)
        #expect(task?.title == "Second, seen First" && task?.conflicts.isEmpty == true)
        var ahead = SimulatedReplica(number: 4, author: "fast", wall: a.wall + 86_400_000)
        ahead.receive(a.events)
        ahead.edit(id, .init(body: "from the future"))
        a.receive(ahead.events)
        a.edit(id, .init(body: "later, seen it"))
        #expect(a.tasks.first { $0.id == id }?.body == "later, seen it")
    }

    @Test func unknownFieldsAndKindsPassThrough() throws {
        var (a, _, _, id) = start()
        let base = try #require(a.events.last)
        let future = Event(
            id: TaskID("99999999-0000-4000-8000-000000000001")!, replica: base.replica, author: "newer", at: base.at,
            clock: HybridClock(milliseconds: base.clock.milliseconds + 5), task: id, kind: .edited,
            fields: ["effort": FieldChangeValues(new: .number("3"), old: .null, unknownFields: ["why": .string("x")])],
            unknownFields: ["device": .string("phone")])
        let archived = Event(
            id: TaskID("99999999-0000-4000-8000-000000000002")!, replica: base.replica, author: "newer", at: base.at,
            clock: HybridClock(milliseconds: base.clock.milliseconds + 6), task: id, kind: .other("archived"))
        a.receive([future, archived])
        let task = a.tasks.first { $0.id == id }
        #expect(task?.unknownFields["effort"] == .number("3") && task?.title == "Tâche commune")
        for event in [future, archived] {
            let line = EventCodec.line(event)
            #expect(try EventCodec.decode(line: line.dropLast()) == event, "re-encoding keeps everything")
        }
    }

    /// Three copies change offline in random ways, sync in random orders and
    /// groupings: all boards end byte-identical, and syncing again changes nothing.
    @Test(arguments: 0..<40)
    func randomChangesAndSyncOrdersConverge(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 7)
        var copies = [
            SimulatedReplica(number: 1, author: "a"),
            SimulatedReplica(number: 2, author: "b", wall: 1_795_000_000_000 - 86_400_000),
            SimulatedReplica(number: 3, author: "c", wall: 1_795_000_000_000 + 3_600_000),
        ]
        for _ in 0..<30 {
            let who = Int.random(in: 0..<3, using: &random)
            let tasks = copies[who].tasks
            let target = tasks.randomElement(using: &random)?.id
            let names = ["ana", "ji-woo", "Am\u{E9}lie", "지우"]
            switch (Int.random(in: 0..<10, using: &random), target) {
            case (0, _), (_, nil): copies[who].add(["Fix login", "Tâche", "한국어", "Plan"].randomElement(using: &random)!)
            case (6, let id?): copies[who].assign(id, [names.randomElement(using: &random)!])
            case (7, let id?): copies[who].assign(id, unassign: [names.randomElement(using: &random)!])
            case (1, let id?):
                copies[who].edit(id, .init(title: ["X", "Y", "Tâche", "Ta\u{302}che"].randomElement(using: &random)!))
            case (2, let id?): copies[who].edit(id, .init(body: ["b1", "b2"].randomElement(using: &random)!))
            case (3, let id?): copies[who].move(id, to: TaskState.allCases.randomElement(using: &random)!)
            case (4, let id?): copies[who].delete(id)
            case (5, let id?):
                copies[who].edit(id, .init(due: .some(CivilDate(iso: "2026-12-0\(Int.random(in: 1...9, using: &random))"))))
            default: copies[who].undo()
            }
            if Int.random(in: 0..<4, using: &random) == 0 {
                let (from, to) = (Int.random(in: 0..<3, using: &random), Int.random(in: 0..<3, using: &random))
                let some = copies[from].events.filter { _ in Bool.random(using: &random) }
                copies[to].receive(some)
            }
        }
        var everything = copies.flatMap(\.events)
        everything.shuffle(using: &random)
        for index in copies.indices { copies[index].receive(everything.shuffled(using: &random)) }
        #expect(
            copies[0].boardBytes == copies[1].boardBytes && copies[1].boardBytes == copies[2].boardBytes, "seed \(seed) differs")
        let before = copies[0].boardBytes
        copies[0].receive(everything)
        #expect(copies[0].boardBytes == before, "receiving again changes nothing")
        // Every value anyone wrote is in every copy's log (its history).
        for copy in copies { #expect(Set(copy.events.map(\.id)) == Set(everything.map(\.id))) }
    }
}
