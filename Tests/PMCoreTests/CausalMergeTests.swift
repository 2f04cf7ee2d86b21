import PMCore
import PMTestSupport
import Testing

/// The merge rules judged by what each change saw (issue 20): a change made
/// without seeing another never removes it, whatever became of its value;
/// an undo sets only what it takes back; deletions that together saw
/// everything keep a task deleted.
@Suite struct CausalMergeTests {
    /// Three copies that started from the same task ("Tâche commune").
    func start() -> (SimulatedReplica, SimulatedReplica, SimulatedReplica, TaskID) { MergeTests().start() }

    /// Every copy gets every event; all must write the same bytes.
    func everyone(_ copies: inout [SimulatedReplica], _ id: TaskID) -> BoardTask? {
        let all = copies.flatMap(\.events)
        for index in copies.indices { copies[index].receive(all) }
        for copy in copies.dropFirst() { #expect(copy.boardBytes == copies[0].boardBytes) }
        return copies[0].tasks.first { $0.id == id }
    }

    @Test func undoingADeleteNeverOverwritesAConcurrentEdit() {
        for deleterFirst in [true, false] {
            var (a, b, c, id) = start()
            if !deleterFirst { b.edit(id, .init(title: "Plan v2", body: "details")) }
            a.delete(id)
            a.undo()
            if deleterFirst { b.edit(id, .init(title: "Plan v2", body: "details")) }
            var copies = [a, b, c]
            let task = everyone(&copies, id)
            #expect(task?.title == "Plan v2" && task?.body == "details", "deleter first: \(deleterFirst)")
            #expect(task?.conflicts.isEmpty == true, "the undo set nothing: \(String(describing: task?.conflicts))")
        }
    }

    @Test func anUndoOfAnEditKeepsAConcurrentValueBesideIt() {
        var (a, b, c, id) = start()
        a.edit(id, .init(title: "Mine"))
        var copies = [a, b, c]
        _ = everyone(&copies, id)
        (a, b, c) = (copies[0], copies[1], copies[2])
        a.undo()
        b.edit(id, .init(title: "Theirs"))
        copies = [a, b, c]
        let task = everyone(&copies, id)
        let values = Set([task?.title] + (task?.conflicts["title"] ?? []).map { if case .string(let t) = $0 { t } else { nil } })
        #expect(values == ["Tâche commune", "Theirs"], "\(values)")
    }

    @Test func aDeleteNeverSwallowsAnEditThatLostItsRace() {
        var (a, b, c, id) = start()
        a.edit(id, .init(title: "From A"))
        b.wall += 5_000
        b.edit(id, .init(title: "From B"))
        // C sees only B's change (the one shown everywhere) and deletes.
        c.receive(b.events)
        c.delete(id)
        var copies = [a, b, c]
        let task = everyone(&copies, id)
        #expect(task?.restored == true && task?.title == "From A", "\(String(describing: task))")
    }

    @Test func aDeleteThatSawAValueWrittenTwiceStillMissedTheSecondWrite() {
        var (a, b, c, id) = start()
        c.receive(a.events)
        c.delete(id)  // saw "Tâche commune"
        b.edit(id, .init(title: "Draft"))
        b.edit(id, .init(title: "Tâche commune"))  // back to what C saw, but C never saw this change
        var copies = [a, b, c]
        let task = everyone(&copies, id)
        #expect(task?.title == "Tâche commune", "the task stays, with the change the deletion never saw")
    }

    @Test func deletionsThatTogetherSawEverythingKeepTheTaskDeleted() {
        var (a, b, c, id) = start()
        var d = SimulatedReplica(number: 4, author: "lee")
        d.receive(a.events)
        a.edit(id, .init(body: "from a"))
        b.move(id, to: .doing)
        // C saw A's change only, D saw B's only; each deletes.
        c.receive(a.events)
        d.receive(b.events)
        c.delete(id)
        d.delete(id)
        var copies = [a, b, c, d]
        #expect(everyone(&copies, id) == nil)
    }

    /// Random changes, undos and partial exchanges between four copies; then
    /// everyone sees everything. Judged against what each change saw:
    /// every value written is shown, a conflict, or replaced by a change
    /// that saw it; a task is there only if some change on it was seen by
    /// no deletion, and gone only if every change on it was covered.
    @Test(arguments: 0..<60)
    func nothingAChangeDidNotSeeIsLost(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 0x2545_F491 &+ 11)
        var copies = (1...4).map { SimulatedReplica(number: $0, author: "p\($0)", wall: 1_795_000_000_000 + Int64($0) * 60_000) }
        var knew: [TaskID: Set<TaskID>] = [:]
        for _ in 0..<40 {
            let who = Int.random(in: 0..<copies.count, using: &random)
            let had = Set(copies[who].events.map(\.id))
            let target = copies[who].tasks.randomElement(using: &random)?.id
            switch (Int.random(in: 0..<8, using: &random), target) {
            case (0, _), (_, nil): copies[who].add(["Fix login", "Tâche", "한국어"].randomElement(using: &random)!)
            case (1, let id?):
                copies[who].edit(id, .init(title: ["X", "Y", "Tâche", "Ta\u{302}che"].randomElement(using: &random)!))
            case (2, let id?): copies[who].edit(id, .init(body: ["b1", "b2"].randomElement(using: &random)!))
            case (3, let id?): copies[who].move(id, to: TaskState.allCases.randomElement(using: &random)!)
            case (4, let id?): copies[who].delete(id)
            default: copies[who].undo()
            }
            for event in copies[who].events where !had.contains(event.id) { knew[event.id] = had }
            if Int.random(in: 0..<3, using: &random) == 0 {
                // A whole sync (every event of one copy), as pm's sync delivers.
                let (from, to) = (
                    Int.random(in: 0..<copies.count, using: &random), Int.random(in: 0..<copies.count, using: &random)
                )
                copies[to].receive(copies[from].events)
            }
        }
        let shownTasks = Dictionary(uniqueKeysWithValues: everyoneTasks(&copies).map { ($0.id, $0) })
        let all = FoldedTasks.inMergeOrder(copies[0].events)
        for (id, events) in Dictionary(grouping: all, by: \.task) {
            let deletions = events.filter { $0.kind == .deleted }
            let seenByADeletion = Set(deletions.flatMap { knew[$0.id] ?? [] })
            let makers = events.filter { $0.kind != .deleted }
            guard let task = shownTasks[id] else {
                #expect(makers.allSatisfy { covered($0, events, knew) }, "seed \(seed): \(id) gone though a change was missed")
                continue
            }
            #expect(events.contains { $0.kind == .created }, "seed \(seed): invented")
            #expect(makers.contains { !seenByADeletion.contains($0.id) }, "seed \(seed): \(id) wrongly came back")
            for event in makers where event.kind != .restored {
                for (name, values) in event.fields where name != "createdAt" {
                    let shown = value(name, of: task)
                    let others = task.conflicts[name] ?? []
                    #expect(!others.contains(shown), "seed \(seed): a value is its own conflict")
                    let kept = shown == values.new || others.contains(values.new)
                    let replaced = events.contains { later in
                        (knew[later.id] ?? []).contains(event.id) && (later.kind == .deleted || later.fields[name] != nil)
                    }
                    #expect(kept || replaced, "seed \(seed): \(name) = \(values.new) of \(event.id) lost")
                }
            }
        }
    }

    func everyoneTasks(_ copies: inout [SimulatedReplica]) -> [BoardTask] {
        let all = copies.flatMap(\.events)
        for index in copies.indices { copies[index].receive(all) }
        for copy in copies.dropFirst() { #expect(copy.boardBytes == copies[0].boardBytes) }
        return copies[0].tasks
    }

    /// Whether a deletion saw `event`, or every field it wrote was written
    /// again by a change that saw it and is itself covered.
    func covered(_ event: Event, _ events: [Event], _ knew: [TaskID: Set<TaskID>]) -> Bool {
        let seers = events.filter { (knew[$0.id] ?? []).contains(event.id) }
        if seers.contains(where: { $0.kind == .deleted }) { return true }
        if event.kind == .restored || event.kind == .created { return false }
        return event.fields.keys.filter { $0 != "createdAt" }.allSatisfy { name in
            seers.contains { $0.kind != .deleted && $0.fields[name] != nil && covered($0, events, knew) }
        }
    }

    func value(_ name: String, of task: BoardTask) -> JSONValue {
        switch name {
        case "title": return .string(task.title)
        case "body": return .string(task.body)
        case "due": return task.due.map { .string($0.description) } ?? .null
        case "state": return .string(task.state.rawValue)
        default: return task.unknownFields[name] ?? .null
        }
    }
}
