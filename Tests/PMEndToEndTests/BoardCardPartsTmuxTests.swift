import Foundation
import Testing

/// `pm board` in a real terminal (tmux) shows a card's priority, labels and
/// checklist progress, and its form edits them (issue 47).
@Suite(.serialized, .onOwnThreads) struct BoardCardPartsTmuxTests {
    typealias Session = BoardTmuxTests.Session

    func card(_ pm: PMBinary, _ title: String) throws -> [String: Any]? {
        let list = try pm.run(["list", "--json"]).stdout
        let tasks = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]] ?? []
        return tasks.first { $0["title"] as? String == title }
    }

    /// A recurring card shows ↻ on its own (issue 48); moved to DONE on the
    /// board it makes its next occurrence, and one undo takes both back.
    @Test func aRecurringCardDoneOnTheBoardMakesTheNextOne() throws {
        let pm = PMBinary()
        try pm.run(["add", "Standup", "--every", "week"])
        let session = try Session(pm: pm)
        defer { session.close() }
        #expect(session.waitFor { $0.contains("Standup") && $0.contains("↻") }, "\(session.screen)")
        try session.keys(">")
        #expect(session.waitFor { $0.contains("DOING (1)") }, "\(session.screen)")
        try session.keys(">")
        #expect(
            session.waitFor { $0.contains("TODO (1)") && $0.contains("DONE (1)") && $0.contains("Next: 'Standup'") },
            "\(session.screen)")
        try session.keys("u")
        #expect(
            session.waitFor { $0.contains("TODO (0)") && $0.contains("DOING (1)") && $0.contains("DONE (0)") },
            "\(session.screen)")
    }

    @Test func theBoardShowsAndEditsPriorityLabelsAndTheChecklist() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let id = try pm.run(["add", "Ship it", "--priority", "urgent", "--label", "release"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try pm.run(["check", id, "add", "Tag"])
        try pm.run(["check", id, "add", "Announce"])
        try pm.run(["check", id, "done", "1"])
        try pm.run(["comment", id, "Ship on Friday"])
        let session = try Session(pm: pm)
        defer { session.close() }
        // The mark before the title, the progress and labels under it.
        #expect(session.waitFor { $0.contains("!!!! Ship it") && $0.contains("✓ 1/2 #release") }, "\(session.screen)")
        try session.keys("e")
        #expect(session.waitFor { $0.contains("Edit 'Ship it'") && $0.contains("[x] Tag") }, "\(session.screen)")
        // Tab to the priority (title, body, deadline, people, priority), then the labels, then the checklist.
        try session.keys("Tab", "Tab", "Tab", "Tab")
        for _ in 0..<"urgent".count { try session.keys("BSpace") }
        try session.raw("low")
        try session.keys("Tab", "End")
        try session.raw(", docs")
        try session.keys("Tab", "End")
        // A third line, ticked as typed.
        try session.keys("Enter")
        try session.raw("[x] Celebrate")
        try session.keys("C-s")
        #expect(
            session.waitFor(10) { _ in ((try? card(pm, "Ship it"))??["priority"] as? String) == "low" },
            "\(session.screen)")
        let saved = try #require(try card(pm, "Ship it"))
        #expect(saved["labels"] as? [String] == ["docs", "release"])
        let items = saved["checklist"] as? [[String: Any]]
        #expect(items?.map { $0["text"] as? String } == ["Tag", "Announce", "Celebrate"], "\(items ?? [])")
        #expect(items?.map { $0["done"] as? Bool } == [true, false, true])
        #expect(session.waitFor { $0.contains("! Ship it") && $0.contains("✓ 2/3 #docs #release") }, "\(session.screen)")
        // The card's own panel (t, then Tab): its checklist and comments, then its history.
        try session.keys("t", "Tab")
        #expect(
            session.waitFor { $0.contains("Checklist (2/3)") && $0.contains("[x] Celebrate") && $0.contains("Ship on Friday") },
            "\(session.screen)")
    }
}
