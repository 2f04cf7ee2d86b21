import Foundation
import PMBoardUI
import PMCore
import PMICU
import PMLocalization
import Testing

/// Golden screens from the pure renderer: three languages, three sizes,
/// Korean, French (composed and decomposed) and emoji titles. Set
/// PM_UPDATE_GOLDENS=1 to write them after a deliberate change, then read the diff.
@Suite struct BoardRendererTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func task(_ n: Int, _ title: String, _ state: TaskState, due: String? = nil) -> BoardTask {
        BoardTask(
            id: TaskID(String(format: "%08x-0000-4000-8000-%012x", n, n))!, title: title, state: state,
            due: due.flatMap(CivilDate.init(iso:)), createdAt: "2026-11-0\(n % 9 + 1)T09:00:00.000Z",
            updatedAt: "2026-11-0\(n % 9 + 1)T09:00:00.000Z")
    }

    func board() -> [BoardTask] {
        var conflicted = task(4, "Budget 2027", .doing)
        conflicted.conflicts = ["title": [.string("Budget 2027 (v2)")]]
        return [
            task(1, "Write the quarterly report", .todo, due: "2026-11-20"),
            task(2, "디자인 검토 회의 준비하기", .todo, due: "2026-12-01"),
            task(3, "Réunion d\u{2019}équipe à Lyon", .doing),
            conflicted,
            task(5, "Ta\u{302}che de\u{301}compose\u{301}e 🚀🎉", .done, due: "2026-11-10"),
            task(6, "Release 1.0 👩‍💻", .done),
        ]
    }

    func screen(_ language: String, width: Int, height: Int, mode: (inout BoardScreen) -> Void = { _ in }) -> String {
        let tasks = board()
        let columns = TaskState.allCases.map { state in tasks.filter { $0.state == state }.map(\.id) }
        var state = BoardScreen(columns: columns)
        state.refresh(columns: columns, canUndo: true, canRedo: false)
        mode(&state)
        let localizer = Localizer(chain: LanguageChain([language]))
        let locale = ["en": "en_US", "fr": "fr_FR", "ko": "ko_KR"][language] ?? "en_US"
        let renderer = BoardRenderer(localizer: localizer, formatLocale: locale, today: CivilDate(iso: "2026-11-21")!)
        let byID = Dictionary(uniqueKeysWithValues: tasks.map { ($0.id, $0) })
        return renderer.render(state, tasks: byID, width: width, height: height, status: "").plainText + "\n"
    }

    func check(_ name: String, _ text: String) throws {
        let file = Self.fixtures.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["PM_UPDATE_GOLDENS"] == "1" {
            try Data(text.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(text == expected, "\(name) differs:\n\(text)")
    }

    @Test(arguments: ["en", "fr", "ko"])
    func goldenBoards(language: String) throws {
        for (width, height) in [(120, 40), (80, 24), (50, 20)] {
            try check("board-\(language)-\(width)x\(height)", screen(language, width: width, height: height))
        }
        try check("menu-\(language)-80x24", screen(language, width: 80, height: 24) { _ = $0.reduce(.enter) })
        try check("delete-\(language)-80x24", screen(language, width: 80, height: 24) { _ = $0.reduce(.character("d")) })
        try check("help-\(language)-80x24", screen(language, width: 80, height: 24) { _ = $0.reduce(.character("?")) })
    }

    /// Every row fits the width in cells, whatever the language and the size.
    @Test func rowsNeverExceedTheWidth() {
        for language in ["en", "fr", "ko"] {
            for (width, height) in [(120, 40), (80, 24), (50, 20), (30, 10)] {
                let text = screen(language, width: width, height: height)
                for line in text.split(separator: "\n") {
                    #expect(TerminalCells.width(of: String(line)) <= width, "\(language) \(width): \(line)")
                }
            }
        }
    }
}
