import Foundation
import Testing

/// A saved view's change is a change like a task's (issue 47): undo takes
/// back exactly it (never an older task change in its place), refuses when
/// someone changed the view since, and history and news say it — in each
/// shipped language.
@Suite struct ViewUndoEndToEndTests {
    struct Words {
        var saved: String
        var undidSave: String
        var undidChange: String
        var changedLine: String
        var conflict: String
        var newsHeading: String
    }

    static let words: [String: Words] = [
        "en_US.UTF-8": Words(
            saved: "Saved the view 'mine'.", undidSave: "Undid your last change: saved the view 'mine'.",
            undidChange: "Undid your last change: changed the view 'mine'.", changedLine: "Changed the view 'mine'.",
            conflict: "the view 'mine' was changed by lee", newsHeading: "View 'mine'"),
        "fr_FR.UTF-8": Words(
            saved: "Vue «\u{202F}mine\u{202F}» enregistrée.",
            undidSave: "Dernière modification annulée\u{A0}: l’enregistrement de la vue «\u{202F}mine\u{202F}».",
            undidChange: "Dernière modification annulée\u{A0}: la modification de la vue «\u{202F}mine\u{202F}».",
            changedLine: "Vue «\u{202F}mine\u{202F}» modifiée.",
            conflict: "la vue «\u{202F}mine\u{202F}» a été modifiée par lee", newsHeading: "Vue «\u{202F}mine\u{202F}»"),
        "ko_KR.UTF-8": Words(
            saved: "보기 'mine'을 저장했습니다.", undidSave: "마지막 변경(보기 'mine' 저장)을 되돌렸습니다.",
            undidChange: "마지막 변경(보기 'mine' 변경)을 되돌렸습니다.", changedLine: "보기 'mine'을 바꿨습니다.",
            conflict: "보기 'mine'을 lee 님이", newsHeading: "보기 'mine'"),
    ]

    func views(_ pm: PMBinary) throws -> [String: [String: Any]] {
        let run = try pm.run(["view", "list", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        var result: [String: [String: Any]] = [:]
        for view in list { result[view["name"] as? String ?? ""] = view["filter"] as? [String: Any] }
        return result
    }

    func titles(_ pm: PMBinary) throws -> [String] {
        let run = try pm.run(["list", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        return list.compactMap { $0["title"] as? String }
    }

    @Test(arguments: CardPartsEndToEndTests.languages) func undoTakesBackTheViewAndOnlyIt(language: String) throws {
        let pm = PMBinary(language: language)
        let said = try #require(Self.words[language])
        let ana = ["PM_USER": "ana"]
        #expect(try pm.run(["add", "Kept"], ana).status == 0)
        #expect(try pm.run(["view", "save", "mine", "--label", "bug"], ana).status == 0)
        // Undo takes back the view's save, not the task added before it.
        #expect(try pm.run(["undo"], ana).stdout == said.undidSave + "\n")
        #expect(try views(pm)["mine"] == nil)
        #expect(try titles(pm) == ["Kept"])
        #expect(try pm.run(["redo"], ana).status == 0)
        #expect(try views(pm)["mine"]?["labels"] as? [String] == ["bug"])
        // A replacement undone puts the filter it replaced back.
        #expect(try pm.run(["view", "save", "mine", "--overdue"], ana).status == 0)
        #expect(try pm.run(["undo"], ana).stdout == said.undidChange + "\n")
        let back = try views(pm)["mine"]
        #expect(back?["labels"] as? [String] == ["bug"] && back?["overdue"] == nil, "\(String(describing: back))")
        let history = try pm.run(["history", "--limit", "6"], ana).stdout
        #expect(history.contains(said.saved), "\(history)")
        #expect(history.contains(said.changedLine), "\(history)")
        // The JSON history names the action `view`, the view's name and its filters.
        let json = try pm.run(["history", "--json", "--limit", "1"], ana).stdout
        let entry = try #require((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])?.first)
        #expect(entry["action"] as? String == "view" && entry["title"] as? String == "mine")
        #expect(entry["undoes"] is String)
        let change = try #require((entry["changes"] as? [[String: Any]])?.first)
        #expect(change["field"] as? String == "filter")
        #expect((change["from"] as? [String: Any])?["overdue"] as? Bool == true)
        #expect((change["to"] as? [String: Any])?["labels"] as? [String] == ["bug"])
    }

    @Test(arguments: CardPartsEndToEndTests.languages) func someoneElsesChangeToTheViewBlocksUndo(language: String) throws {
        let pm = PMBinary(language: language)
        let said = try #require(Self.words[language])
        #expect(try pm.run(["add", "Kept"], ["PM_USER": "ana"]).status == 0)
        #expect(try pm.run(["view", "save", "mine", "--label", "bug"], ["PM_USER": "ana"]).status == 0)
        #expect(try pm.run(["view", "save", "mine", "--mine"], ["PM_USER": "lee"]).status == 0)
        let before = pm.boardBytes()
        let refused = try pm.run(["undo"], ["PM_USER": "ana"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains(said.conflict), "\(refused.stderr)")
        #expect(pm.boardBytes() == before, "a refused undo writes nothing")
        #expect(try views(pm)["mine"]?["mine"] as? Bool == true)
        // Deleted since: refused too; after --skip, undo reaches the task.
        #expect(try pm.run(["view", "delete", "mine"], ["PM_USER": "lee"]).status == 0)
        #expect(try pm.run(["undo"], ["PM_USER": "ana"]).status == 1)
        #expect(try views(pm).isEmpty, "a refused undo brings no view back")
        #expect(try pm.run(["undo", "--skip"], ["PM_USER": "ana"]).status == 0)
        #expect(try pm.run(["undo"], ["PM_USER": "ana"]).status == 0)
        #expect(try titles(pm).isEmpty)
        // Lee's own undo of the deletion brings Lee's filter back.
        #expect(try pm.run(["undo"], ["PM_USER": "lee"]).status == 0)
        #expect(try views(pm)["mine"]?["mine"] as? Bool == true)
        // News says another's view changes, under the view's name.
        let news = try pm.run(["news"], ["PM_USER": "ana"]).stdout
        #expect(news.contains(said.newsHeading + "\n"), "\(news)")
    }
}
