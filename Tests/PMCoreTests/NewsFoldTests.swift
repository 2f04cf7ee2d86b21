import PMCore
import Testing

/// ``NewsFold`` on chains of changes, undos and redos, on a log that links
/// events in a loop, and on imports (issue 44, item 6).
@Suite struct NewsFoldTests {
    static func id(_ n: Int, imported: Bool = false) -> TaskID {
        TaskID(String(format: "00000000-0000-%@000-8000-%012x", imported ? "8" : "4", n))!
    }

    static func event(
        _ n: Int, _ action: HistoryAction, task: Int = 100, undoes: Int? = nil, redoes: Int? = nil, at: String = "t",
        imported: Bool = false
    ) -> HistoryEvent {
        var event = HistoryEvent(
            id: id(n), at: at, by: "camille", action: action, taskID: id(task, imported: imported), title: "T\(task)")
        event.undoes = undoes.map { id($0) }
        event.redoes = redoes.map { id($0) }
        return event
    }

    @Test func chainsOfEvenLengthVanishAndOddOnesSayTheirLast() {
        let add = Self.event(1, .added)
        let undo = Self.event(2, .removed, undoes: 1)
        let redo = Self.event(3, .added, redoes: 2)
        // Newest first.
        let (kept, cancelled) = NewsFold.fold([redo, undo, add])
        #expect(kept.count == 1 && kept[0].id == redo.id && kept[0].redoes == nil, "said as the add the reader never saw")
        #expect(cancelled.count == 2)
        #expect(NewsFold.fold([undo, add]).kept.isEmpty)
        // The add seen before: its undo is news, as an undo.
        let alone = NewsFold.fold([undo]).kept
        #expect(alone.count == 1 && alone[0].undoes == add.id)
        // Undo then redo of a change seen before: nothing changed.
        #expect(NewsFold.fold([redo, undo]).kept.isEmpty)
    }

    @Test func aLoopOfLinksIsReadOnceAndSaid() {
        // Two events naming each other (a hostile log): no head, both said, no trap.
        let a = Self.event(1, .edited, undoes: 2)
        let b = Self.event(2, .edited, undoes: 1)
        let self1 = Self.event(3, .edited, undoes: 3)
        let (kept, cancelled) = NewsFold.fold([a, b, self1])
        #expect(kept.count + cancelled.count == 3)
        #expect(kept.contains { $0.id == self1.id })
    }

    @Test func anImportIsOneStepAndOnlyAnImport() {
        let imported = (10..<14).map { Self.event($0, .added, task: $0, at: "t1", imported: true) }
        let typed = [Self.event(20, .added, task: 20, at: "t1"), Self.event(21, .added, task: 21, at: "t1")]
        let other = Self.event(22, .added, task: 22, at: "t2", imported: true)
        let (steps, rest) = NewsFold.imports(imported + typed + [other])
        #expect(steps.count == 1 && steps[0].kind == .imported && steps[0].entries.count == 4)
        #expect(Set(rest.map(\.id)) == Set((typed + [other]).map(\.id)), "pm's own adds, and a lone one, are cards")
        let undone = (10..<13).map { Self.event($0 + 10, .removed, task: $0, undoes: $0, at: "t3", imported: true) }
        #expect(NewsFold.imports(undone).steps.first?.kind == .undone)
    }
}
