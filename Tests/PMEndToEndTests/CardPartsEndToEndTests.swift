import Foundation
import Testing

/// Labels, priority, checklists, comments and saved views through the
/// binary (issue 47), in each shipped language: every command, its
/// refusals (with nothing written), undo and redo, history and news.
@Suite struct CardPartsEndToEndTests {
    static let languages = ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"]

    /// What each language says, as its table words it (an error's first
    /// letter left out: after "error:" French and English lower it).
    struct Words {
        var ticked: String
        var labelled: String
        var undid: String
        var itemMissing: String
        var notYours: String
        var priorityWord: String
        var checklistHeading: String
    }

    static let words: [String: Words] = [
        "en_US.UTF-8": Words(
            ticked: "Ticked 'Draft' on 'Report'.", labelled: "Added the label 'bug' to 'Report'.",
            undid: "Undid your last change: ticked 'Draft' on 'Report'.", itemMissing: "he checklist has no item '9'",
            notYours: "his comment is ana's", priorityWord: "high", checklistHeading: "Checklist (1/2)"),
        "fr_FR.UTF-8": Words(
            ticked: "Élément «\u{202F}Draft\u{202F}» coché dans la liste de contrôle de «\u{202F}Report\u{202F}».",
            labelled: "Étiquette «\u{202F}bug\u{202F}» ajoutée à «\u{202F}Report\u{202F}».",
            undid:
                "Dernière modification annulée\u{A0}: le cochage de «\u{202F}Draft\u{202F}» dans la liste de contrôle de «\u{202F}Report\u{202F}».",
            itemMissing: "a liste de contrôle n’a pas d’élément «\u{202F}9\u{202F}»",
            notYours: "e commentaire a été écrit par ana",
            priorityWord: "haute", checklistHeading: "Liste de contrôle (1/2)"),
        "ko_KR.UTF-8": Words(
            ticked: "'Report'의 체크리스트에서 'Draft'를 체크했습니다.", labelled: "'Report'에 라벨 'bug'를 붙였습니다.",
            undid: "마지막 변경('Report'의 체크리스트에서 'Draft'를 체크한 것)을 되돌렸습니다.", itemMissing: "체크리스트에 '9' 항목이 없습니다",
            notYours: "이 댓글은 ana 님이 썼습니다", priorityWord: "높음", checklistHeading: "체크리스트 (1/2)"),
    ]

    func object(_ pm: PMBinary, _ id: String) throws -> [String: Any] {
        let run = try pm.run(["show", id, "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    }

    @Test(arguments: languages) func everyPartAtTheCommandLineInTheReadersLanguage(language: String) throws {
        let pm = PMBinary(language: language)
        let said = try #require(Self.words[language])
        let ana = ["PM_USER": "ana"]
        // The priority typed in the reader's language; labels given at once.
        let id = try pm.run(["add", "Report", "--priority", said.priorityWord, "--label", "ui"], ana).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try object(pm, id)["priority"] as? String == "high")
        #expect(try pm.run(["label", id, "bug"], ana).stdout == said.labelled + "\n")
        #expect(try object(pm, id)["labels"] as? [String] == ["bug", "ui"])
        #expect(try pm.run(["check", id, "add", "Draft"], ana).status == 0)
        #expect(try pm.run(["check", id, "add", "Send"], ana).status == 0)
        #expect(try pm.run(["check", id, "done", "1"], ana).stdout == said.ticked + "\n")
        let checklist = try object(pm, id)["checklist"] as? [[String: Any]]
        #expect(checklist?.map { $0["text"] as? String } == ["Draft", "Send"])
        #expect(checklist?.map { $0["done"] as? Bool } == [true, false])
        #expect(try pm.run(["show", id], ana).stdout.contains(said.checklistHeading))
        // Undo takes back the tick, and only it; redo puts it back.
        #expect(try pm.run(["undo"], ana).stdout == said.undid + "\n")
        #expect((try object(pm, id)["checklist"] as? [[String: Any]])?.first?["done"] as? Bool == false)
        #expect(try object(pm, id)["labels"] as? [String] == ["bug", "ui"], "the label stays: undo took back the tick only")
        #expect(try pm.run(["redo"], ana).status == 0)
        #expect((try object(pm, id)["checklist"] as? [[String: Any]])?.first?["done"] as? Bool == true)
        // The history says each change in the reader's language.
        let history = try pm.run(["history", "--limit", "10"], ana).stdout
        #expect(history.contains(said.labelled))
        #expect(history.contains(said.ticked))
        try refusals(pm, id, said)
    }

    /// Each refusal says why, in the reader's language, with its exit code,
    /// and writes nothing.
    func refusals(_ pm: PMBinary, _ id: String, _ said: Words) throws {
        let before = pm.boardBytes()
        let missing = try pm.run(["check", id, "done", "9"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains(said.itemMissing), "\(missing.stderr)")
        #expect(try pm.run(["check", id, "add", "   "]).status == 64, "an item with nothing visible")
        #expect(try pm.run(["comment", id, "\u{200B}"]).status == 64, "a comment with nothing visible")
        #expect(try pm.run(["label", id, "b\u{200D}ug"]).status == 64, "a label nobody could type back")
        #expect(try pm.run(["label", id, "a,,b"]).status == 64, "an empty label")
        #expect(try pm.run(["edit", id, "--priority", "someday"]).status == 64)
        #expect(try pm.run(["check", id, "frob", "1"]).status == 64)
        #expect(try pm.run(["check", id, "move", "1", "0"]).status == 64)
        #expect(try pm.run(["view", "delete", "nope"]).status == 1)
        #expect(pm.boardBytes() == before, "a refusal writes nothing")
        // Someone else's comment: refused, and said whose it is.
        #expect(try pm.run(["comment", id, "From ana"], ["PM_USER": "ana"]).status == 0)
        let other = try pm.run(["comment", id, "--edit", "1", "rewritten"], ["PM_USER": "lee"])
        #expect(other.status == 1)
        #expect(other.stderr.contains(said.notYours), "\(other.stderr)")
        let comments = try object(pm, id)["comments"] as? [[String: Any]]
        #expect(comments?.map { $0["text"] as? String } == ["From ana"])
        #expect(comments?.first?["by"] as? String == "ana")
    }

    @Test func othersChangesToTheseFieldsAreNewsAndShowOnTheList() throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Shared", "--label", "team"], ["PM_USER": "ana"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try pm.run(["check", id, "add", "One"], ["PM_USER": "ana"])
        _ = try pm.run(["news"], ["PM_USER": "ana"])
        #expect(try pm.run(["check", id, "done", "1"], ["PM_USER": "lee"]).status == 0)
        #expect(try pm.run(["comment", id, "Done on my side"], ["PM_USER": "lee"]).status == 0)
        let news = try pm.run(["news"], ["PM_USER": "ana"]).stdout
        #expect(news.contains("Ticked 'One' on 'Shared'."), "\(news)")
        #expect(news.contains("Commented on 'Shared'."), "\(news)")
        let list = try pm.run(["list"], ["PM_USER": "ana"]).stdout
        #expect(list.contains("✓ 1/1 #team"), "\(list)")
        let comment = try pm.run(["show", id], ["PM_USER": "ana"]).stdout
        #expect(comment.contains("Done on my side") && comment.contains("lee"))
    }

    @Test func aSavedViewIsSharedAndFiltersTheList() throws {
        let pm = PMBinary(language: "fr_FR.UTF-8")
        _ = try pm.run(["add", "Bug A", "--label", "bug", "--priority", "urgente"])
        _ = try pm.run(["add", "Bug B", "--label", "bug", "--priority", "basse"])
        _ = try pm.run(["add", "Feature", "--priority", "haute"])
        let saved = try pm.run(["view", "save", "bugs chauds", "--label", "bug", "--priority", "urgente,haute"])
        #expect(saved.status == 0)
        #expect(saved.stdout.contains("Vue «\u{202F}bugs chauds\u{202F}» enregistrée"), "\(saved.stdout)")
        let listed = try pm.run(["list", "--view", "bugs chauds", "--json"]).stdout
        let titles = try (JSONSerialization.jsonObject(with: Data(listed.utf8)) as? [[String: Any]])?.map {
            $0["title"] as? String
        }
        #expect(titles == ["Bug A"])
        // Sorted by priority, urgent first.
        let sorted = try pm.run(["list", "--sort", "priority", "--json"]).stdout
        let order = try (JSONSerialization.jsonObject(with: Data(sorted.utf8)) as? [[String: Any]])?.map {
            $0["title"] as? String
        }
        #expect(order == ["Bug A", "Feature", "Bug B"])
        // Another person on the board sees the view; deleting it is one change.
        #expect(try pm.run(["view", "list"], ["PM_USER": "lee"]).stdout.contains("bugs chauds"))
        #expect(try pm.run(["view", "delete", "bugs chauds"], ["PM_USER": "lee"]).status == 0)
        #expect(try pm.run(["list", "--view", "bugs chauds"]).status == 1)
    }
}
