import PMCore
import PMTestSupport
import Testing

/// Assignees merge as an observed-remove set (DESIGN.md §13): concurrent
/// changes to different names all apply; an assignment and an unassignment
/// of the same name made at once leave it assigned; nothing is ever a
/// conflict; every copy writes the same bytes whatever the order.
@Suite struct AssigneeMergeTests {
    func start() -> (SimulatedReplica, SimulatedReplica, SimulatedReplica, TaskID) { MergeTests().start() }

    /// Every copy gets every event, in two different orders; all must write the same bytes.
    func everyone(_ copies: inout [SimulatedReplica], _ id: TaskID) -> BoardTask? {
        let all = copies.flatMap(\.events)
        for index in copies.indices { copies[index].receive(index % 2 == 0 ? all : all.reversed()) }
        for copy in copies.dropFirst() { #expect(copy.boardBytes == copies[0].boardBytes) }
        let task = copies[0].tasks.first { $0.id == id }
        #expect(task.map(\.conflicts.isEmpty) != false, "never a conflict: \(String(describing: task?.conflicts))")
        return task
    }

    /// The three copies after each has seen everything so far.
    func synced(_ copies: [SimulatedReplica], _ id: TaskID) -> (SimulatedReplica, SimulatedReplica, SimulatedReplica) {
        var copies = copies
        _ = everyone(&copies, id)
        return (copies[0], copies[1], copies[2])
    }

    @Test func concurrentAssignmentsOfDifferentNamesBothApply() {
        var (a, b, c, id) = start()
        a.assign(id, ["ana"])
        b.assign(id, ["ji-woo"])
        var copies = [a, b, c]
        #expect(everyone(&copies, id)?.assignees == ["ana", "ji-woo"])
    }

    @Test func theSameNameAssignedTwiceAtOnceIsOneName() {
        var (a, b, c, id) = start()
        a.assign(id, ["ana"])
        b.assign(id, ["ana"])
        var copies = [a, b, c]
        #expect(everyone(&copies, id)?.assignees == ["ana"])
    }

    @Test func anAssignmentMadeWhileSomeoneUnassignedTheSameNameWins() {
        for unassignFirst in [true, false] {
            var (a, b, c, id) = start()
            a.assign(id, ["ana"])
            (a, b, c) = synced([a, b, c], id)
            if unassignFirst { a.assign(id, unassign: ["ana"]) }
            b.assign(id, unassign: ["ana"])
            b.assign(id, ["ana"])  // B took the name back: A never saw that
            if !unassignFirst { a.assign(id, unassign: ["ana"]) }
            var copies = [a, b, c]
            #expect(everyone(&copies, id)?.assignees == ["ana"], "unassign first: \(unassignFirst)")
        }
    }

    @Test func anUnassignmentThatSawEveryAssignmentTakesTheNameAway() {
        var (a, b, c, id) = start()
        a.assign(id, ["ana"])
        b.assign(id, ["ana"])
        (a, b, c) = synced([a, b, c], id)
        c.assign(id, unassign: ["ana"])
        var copies = [a, b, c]
        #expect(everyone(&copies, id)?.assignees == [])
    }

    @Test func concurrentAdditionAndRemovalOfDifferentNamesBothApply() {
        var (a, b, c, id) = start()
        a.assign(id, ["ana", "lee"])
        (a, b, c) = synced([a, b, c], id)
        a.assign(id, ["ji-woo"])
        b.assign(id, unassign: ["lee"])
        var copies = [a, b, c]
        #expect(everyone(&copies, id)?.assignees == ["ana", "ji-woo"])
    }

    @Test func anAssignmentADeletionDidNotSeeBringsTheTaskBackAssigned() {
        var (a, b, c, id) = start()
        a.delete(id)
        b.assign(id, ["ji-woo"])
        var copies = [a, b, c]
        let task = everyone(&copies, id)
        #expect(task?.restored == true && task?.assignees == ["ji-woo"], "\(String(describing: task))")
        // Deleting it again, having seen the assignment, sticks.
        (a, b, c) = (copies[0], copies[1], copies[2])
        c.delete(id)
        copies = [a, b, c]
        #expect(everyone(&copies, id) == nil)
    }

    @Test func undoingAnAssignmentTakesBackOnlyThatName() {
        var (a, b, c, id) = start()
        a.assign(id, ["ana"])
        b.assign(id, ["ji-woo"])
        (a, b, c) = synced([a, b, c], id)
        a.undo()
        var copies = [a, b, c]
        #expect(everyone(&copies, id)?.assignees == ["ji-woo"])
        (a, b, c) = (copies[0], copies[1], copies[2])
        b.undo()
        copies = [a, b, c]
        #expect(everyone(&copies, id)?.assignees == [])
    }

    @Test func anAssignmentIsNeitherAnEditConflictNorLostBesideOne() {
        var (a, b, c, id) = start()
        a.edit(id, .init(title: "From A"))
        b.edit(id, .init(title: "From B"))
        a.assign(id, ["ana"])
        var copies = [a, b, c]
        let all = copies.flatMap(\.events)
        for index in copies.indices { copies[index].receive(all) }
        let task = copies[0].tasks.first { $0.id == id }
        #expect(task?.assignees == ["ana"])
        #expect(task?.conflicts.keys.sorted() == ["title"])
    }

    @Test func namesAreKeptAsTypedOnEveryCopy() throws {
        // NFD typed on one machine, NFC on another: one name.
        #expect(try Assignees.validName("  Ame\u{301}lie ") == "Am\u{E9}lie")
        #expect(Assignees.isValid("Am\u{E9}lie") && !Assignees.isValid("Ame\u{301}lie"))
        for bad in ["", "   ", "a,b", "evil\u{1B}[2J", "\u{202E}abc", "\u{200B}", String(repeating: "x", count: 201)] {
            #expect(throws: PMError.badAssignee(bad)) { try Assignees.validName(bad) }
        }
        #expect(try Assignees.names("ana, ji-woo,ana") == ["ana", "ji-woo"])
        #expect(throws: PMError.self) { try Assignees.names("ana,,lee") }
    }

    @Test func theGateRefusesAssignmentsNoCopyWouldKeep() {
        var (a, _, _, id) = start()
        let good = a.assign(id, ["ana"])!
        #expect(EventProblem.check(good, replica: nil, now: good.clock.milliseconds) == nil)
        // A deletion names what it took away: the names, set to null.
        var copy = a
        let deletion = copy.delete(id)!
        #expect(deletion.fields[Assignees.field("ana")]?.new == .null)
        #expect(EventProblem.check(deletion, replica: nil, now: deletion.clock.milliseconds) == nil)
        var nulled = good
        nulled.fields = [Assignees.field("ana"): FieldChangeValues(new: .null, old: .bool(true))]
        #expect(EventProblem.check(nulled, replica: nil, now: good.clock.milliseconds) == .badAssignee, "null only in a deletion")
        for (field, value) in [
            ("assignee/a,b", JSONValue.bool(true)), ("assignee/", .bool(true)), ("assignee/ana", .string("yes")),
            ("assignee/Ame\u{301}lie", .bool(true)), ("assignees", .array([.string("ana")])),
        ] {
            var bad = good
            bad.fields = [field: FieldChangeValues(new: value, old: .null)]
            #expect(EventProblem.check(bad, replica: nil, now: good.clock.milliseconds) != nil, "\(field)")
        }
    }

    /// Random assignments, unassignments, undos and partial syncs between
    /// four copies; then everyone sees everything. Judged against the
    /// events alone: a name is assigned exactly when some event that set it
    /// is replaced by no event on that name that saw it, and one such event
    /// assigned it (add wins). Every copy writes the same bytes.
    @Test(arguments: 0..<30)
    func namesFollowTheObservedRemoveRule(seed: Int) {
        var random = SeededGenerator(seed: UInt64(seed) &* 0x6C07_8965 &+ 3)
        var copies = (1...4).map { SimulatedReplica(number: $0, author: "p\($0)", wall: 1_795_000_000_000 + Int64($0) * 60_000) }
        let id = copies[0].add("Shared")!
        for index in copies.indices.dropFirst() { copies[index].receive(copies[0].events) }
        let names = ["ana", "ji-woo", "lee"]
        for _ in 0..<40 {
            let who = Int.random(in: 0..<copies.count, using: &random)
            let name = names.randomElement(using: &random)!
            switch Int.random(in: 0..<6, using: &random) {
            case 0, 1: copies[who].assign(id, [name])
            case 2, 3: copies[who].assign(id, unassign: [name])
            case 4: copies[who].edit(id, .init(title: ["X", "Y"].randomElement(using: &random)!))
            default: copies[who].undo()
            }
            if Int.random(in: 0..<3, using: &random) == 0 {
                let (from, to) = (
                    Int.random(in: 0..<copies.count, using: &random), Int.random(in: 0..<copies.count, using: &random)
                )
                copies[to].receive(copies[from].events)
            }
        }
        // Everyone gets everything, in two orders (titles may be in conflict: names never are).
        let all = copies.flatMap(\.events)
        for index in copies.indices { copies[index].receive(index % 2 == 0 ? all : all.reversed()) }
        for copy in copies.dropFirst() { #expect(copy.boardBytes == copies[0].boardBytes, "seed \(seed)") }
        let task = copies[0].tasks.first { $0.id == id }
        #expect(task?.conflicts.keys.allSatisfy { Assignees.name(ofField: $0) == nil } == true, "seed \(seed)")
        let events = FoldedTasks.inMergeOrder(copies[0].events)
        for name in names {
            let field = Assignees.field(name)
            let setting = events.filter { $0.fields[field] != nil }
            let replaced = Set(setting.flatMap { $0.seen ?? [] })
            let heads = setting.filter { !replaced.contains($0.id) }
            let assigned = heads.contains { $0.fields[field]?.new == .bool(true) }
            #expect(task?.assignees.contains(name) == assigned, "seed \(seed): \(name)")
        }
    }
}
