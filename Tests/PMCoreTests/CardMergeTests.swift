import PMCore
import PMTestSupport
import Testing

/// Labels, priority, checklists and comments merge as DESIGN.md §17 says:
/// each its own field; labels, ticks and removals never lost to an opposite
/// change made at once; comments never conflict; every copy writes the same
/// bytes whatever the order events arrive in.
@Suite struct CardMergeTests {
    func start() -> (SimulatedReplica, SimulatedReplica, SimulatedReplica, TaskID) { MergeTests().start() }

    /// Every copy gets every event, in two different orders; all must write
    /// the same bytes, and every event must pass the gate.
    func everyone(_ copies: inout [SimulatedReplica], _ id: TaskID) -> BoardTask? {
        let all = copies.flatMap(\.events)
        for event in all {
            #expect(EventProblem.check(event, replica: nil, now: Int64.max / 2) == nil, "\(event.fields.keys.sorted())")
        }
        for index in copies.indices { copies[index].receive(index % 2 == 0 ? all : all.reversed()) }
        for copy in copies.dropFirst() { #expect(copy.boardBytes == copies[0].boardBytes) }
        return copies[0].tasks.first { $0.id == id }
    }

    func synced(_ copies: [SimulatedReplica], _ id: TaskID) -> (SimulatedReplica, SimulatedReplica, SimulatedReplica) {
        var copies = copies
        _ = everyone(&copies, id)
        return (copies[0], copies[1], copies[2])
    }

    @Test func labelsMergeAsASetWhereAnAddWins() {
        var (a, b, c, id) = start()
        a.card(id, .labels(adding: ["bug", "ui"], removing: []))
        (a, b, c) = synced([a, b, c], id)
        a.card(id, .labels(adding: [], removing: ["bug"]))
        b.card(id, .labels(adding: ["bug"], removing: []))  // given again: B never saw A take it off
        c.card(id, .labels(adding: ["backend"], removing: ["ui"]))
        var copies = [a, b, c]
        let task = everyone(&copies, id)
        #expect(task?.labels == ["backend", "bug"])
        #expect(task?.conflicts.isEmpty == true)
    }

    @Test func priorityFollowsTheUsualConflictRule() {
        var (a, b, c, id) = start()
        a.card(id, .priority(.high))
        b.card(id, .priority(.low))
        var copies = [a, b, c]
        let task = everyone(&copies, id)
        let shown = task?.priority
        #expect(shown == .high || shown == .low)
        #expect(task?.conflicts["priority"]?.count == 1)
        // Picking one resolves it everywhere.
        copies[2].card(id, .priority(.urgent))
        #expect(everyone(&copies, id)?.conflicts.isEmpty == true)
        #expect(copies[0].tasks.first?.priority == .urgent)
    }

    func checklist(_ texts: [String]) -> (SimulatedReplica, SimulatedReplica, SimulatedReplica, TaskID) {
        var (a, b, c, id) = start()
        for text in texts { a.card(id, .addItem(text: text, before: nil)) }
        (a, b, c) = synced([a, b, c], id)
        return (a, b, c, id)
    }

    @Test func twoPeopleTickingTwoItemsAtOnceBothStick() {
        var (a, b, c, id) = checklist(["one", "two", "three"])
        a.card(id, .tick("1", done: true))
        b.card(id, .tick("3", done: true))
        var copies = [a, b, c]
        let task = everyone(&copies, id)
        #expect(task?.checklist.map(\.done) == [true, false, true])
        #expect(task?.progress.done == 2 && task?.progress.total == 3)
    }

    @Test func aTickAndARenameOfTheSameItemBothStick() {
        var (a, b, c, id) = checklist(["draft"])
        a.card(id, .tick("1", done: true))
        b.card(id, .renameItem("1", text: "final draft"))
        var copies = [a, b, c]
        let item = everyone(&copies, id)?.checklist.first
        #expect(item?.text == "final draft" && item?.done == true)
    }

    @Test func aTickMadeWhileSomeoneUntickedIsNotLost() {
        var (a, b, c, id) = checklist(["one"])
        a.card(id, .tick("1", done: true))
        (a, b, c) = synced([a, b, c], id)
        a.card(id, .tick("1", done: false))
        b.card(id, .tick("1", done: true))  // ticked again, not having seen A untick
        var copies = [a, b, c]
        #expect(everyone(&copies, id)?.checklist.first?.done == true)
    }

    @Test func aRemovedItemStaysRemovedUnlessPutBackAfterBeingSeenRemoved() {
        var (a, b, c, id) = checklist(["one", "two"])
        a.card(id, .removeItem("1"))
        b.card(id, .renameItem("1", text: "one, renamed"))
        b.card(id, .tick("1", done: true))
        var copies = [a, b, c]
        #expect(everyone(&copies, id)?.checklist.compactMap(\.text) == ["two"])
        // A takes the removal back, having seen it: the item returns, with B's changes.
        copies[0].undo()
        let back = everyone(&copies, id)?.checklist
        #expect(back?.compactMap(\.text) == ["one, renamed", "two"])
        #expect(back?.first?.done == true)
    }

    @Test func concurrentReordersAndAddsLoseNoItem() {
        var (a, b, c, id) = checklist(["one", "two", "three"])
        a.card(id, .moveItem("3", to: 1))
        b.card(id, .moveItem("1", to: 3))
        b.card(id, .addItem(text: "four", before: "2"))
        c.card(id, .addItem(text: "five", before: nil))
        var copies = [a, b, c]
        let texts = everyone(&copies, id)?.checklist.compactMap(\.text) ?? []
        #expect(Set(texts) == ["one", "two", "three", "four", "five"])
        #expect(texts.count == 5)
    }

    @Test func commentsNeverConflictAndOnlyTheirAuthorChangesThem() throws {
        var (a, b, c, id) = start()
        a.card(id, .addComment(text: "from camille"))
        b.card(id, .addComment(text: "from ji-woo"))
        var copies = [a, b, c]
        let comments = everyone(&copies, id)?.comments ?? []
        // Oldest first, each with its author.
        #expect(comments.map(\.at) == comments.map(\.at).sorted())
        #expect(Set(comments.map { "\($0.by): \($0.text ?? "")" }) == ["camille: from camille", "ji-woo: from ji-woo"])
        let camilles = String(1 + (comments.firstIndex { $0.by == "camille" } ?? 0))
        let jiwoos = String(1 + (comments.firstIndex { $0.by == "ji-woo" } ?? 0))
        // Ji-woo cannot rewrite Camille's comment…
        var board = Board(id: TaskID("00c0ffee-0000-4000-8000-00000000b0a4")!)
        board.tasks = copies[1].tasks
        #expect(throws: PMError.notYourComment(author: "camille")) {
            try board.change(
                id, .editComment(camilles, text: "forged"), eventID: TaskID("00c0ffee-0000-4000-8000-0000000000ff")!,
                by: "ji-woo", at: "2026-11-29T10:00:00Z")
        }
        (a, b, c) = (copies[0], copies[1], copies[2])
        b.card(id, .editComment(jiwoos, text: "from ji-woo, rewritten"))
        a.card(id, .editComment(camilles, text: nil))
        copies = [a, b, c]
        let after = everyone(&copies, id)
        #expect(after?.comments.map(\.text) == ["from ji-woo, rewritten"])
        #expect(after?.comments.first?.edited != nil)
        #expect(after?.allComments.count == 2)
        #expect(after?.conflicts.isEmpty == true)
    }

    /// An event from a hostile copy that rewrites someone else's comment.
    @Test func aForgedRewriteOfSomeoneElsesCommentIsPassedOver() {
        var (a, b, c, id) = start()
        a.card(id, .addComment(text: "mine"))
        (a, b, c) = synced([a, b, c], id)
        guard let comment = b.tasks.first?.comments.first, var event = b.card(id, .addComment(text: "x")) else {
            Issue.record("no comment")
            return
        }
        var rewritten = comment
        rewritten.text = "forged"
        event.fields = [CardField.comment(comment.id).name: FieldChangeValues(new: rewritten.value, old: comment.value)]
        var hostile = SimulatedReplica(number: 9, author: "ji-woo")
        hostile.receive(b.events.dropLast() + [event])
        #expect(hostile.tasks.first?.comments.map(\.text) == ["mine"])
        _ = (a, c)
    }

    @Test func undoTakesBackExactlyWhatTheChangeSet() {
        var (a, b, c, id) = checklist(["one", "two"])
        a.card(id, .labels(adding: ["bug"], removing: []))
        b.card(id, .labels(adding: ["ui"], removing: []))
        b.card(id, .tick("2", done: true))
        var copies = [a, b, c]
        _ = everyone(&copies, id)
        copies[0].undo()
        let task = everyone(&copies, id)
        #expect(task?.labels == ["ui"])
        #expect(task?.checklist.map(\.done) == [false, true])
    }

    @Test func aDeletedCardComesBackWholeOnUndo() {
        var (a, b, c, id) = checklist(["one"])
        a.card(id, .labels(adding: ["bug"], removing: []))
        a.card(id, .priority(.urgent))
        a.card(id, .addComment(text: "note"))
        a.delete(id)
        (a, b, c) = synced([a, b, c], id)
        #expect(a.tasks.isEmpty)
        a.undo()
        var copies = [a, b, c]
        let task = everyone(&copies, id)
        #expect(task?.labels == ["bug"] && task?.priority == .urgent)
        #expect(task?.checklist.compactMap(\.text) == ["one"] && task?.comments.map(\.text) == ["note"])
    }

    @Test func positionsAlwaysFitBetweenTheirNeighbours() {
        var lower: String? = nil
        let upper: String? = "1"
        for _ in 0..<300 {
            let next = Position.between(lower, upper)
            #expect(Position.isValid(next))
            if let lower { #expect(lower.utf8.lexicographicallyPrecedes(next.utf8)) }
            #expect(next.utf8.lexicographicallyPrecedes("1".utf8))
            lower = next
        }
        let spread = Position.spread(200)
        #expect(spread == spread.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } && Set(spread).count == 200)
        #expect(spread.allSatisfy(Position.isValid))
    }
}
