import PMCore
import PMICU
import PMTestSupport
import PMViews
import Testing

/// A card's marks line (`✓ 1/2 #bug #ui`) and the cells it takes: counted
/// as it is built when every label is plain ASCII, and then exactly what
/// measuring the line says; left to the caller otherwise.
@Suite struct CardMarksTests {
    @Test(arguments: [
        ([], 0), (["bug"], 0), (["bug", "ui"], 3), (["équipe", "bug"], 2), (["검토"], 1), (["a\u{7}b"], 2), ([], 12),
        (["release-notes", "x"], 10),
    ])
    func theWidthCountedIsTheWidthMeasured(labels: [String], items: Int) throws {
        let ids = CountingIDs()
        let time = "2026-11-21T10:00:00.000Z"
        var board = Board(id: ids.make())
        let id = ids.make()
        try board.add(title: "card", id: id, eventID: ids.make(), by: "x", at: time)
        let valid = labels.filter { (try? Assignees.validName($0)) != nil }
        if !valid.isEmpty { try board.change(id, .labels(adding: valid, removing: []), eventID: ids.make(), by: "x", at: time) }
        for item in 0..<items {
            try board.change(
                id, .addItem(text: "step \(item)", before: nil, done: item % 2 == 0), eventID: ids.make(), by: "x", at: time)
        }
        let task = try #require(board.task(id))
        let (text, width) = CardMarks.measured(task)
        #expect(text == CardMarks.line(task))
        if items > 0 { #expect(text.hasPrefix("✓ \((items + 1) / 2)/\(items)")) }
        let ascii = valid.allSatisfy { $0.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        #expect((width != nil) == ascii)
        if let width { #expect(width == TerminalCells.width(of: text)) }
    }
}
