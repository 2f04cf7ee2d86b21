import Foundation
import PMCore
import PMKit
import PMLocalization
import PMSync
import Testing

@testable import PMCLI

/// Every error pm reports, walked case by case (issue 45, item 5): each is
/// said in every shipped language from that language's own table (never
/// English standing in for a missing key, never a raw key), and ends pm with
/// the exit code the README's "Exit codes" table documents for its meaning.
@Suite struct ErrorReportTests {
    /// The documented meaning of each error, as the README's table says it
    /// (a new case does not compile until it is given one here).
    static func documented(_ error: PMError) -> Int32 {
        switch error {
        case .taskNotFound, .ambiguousID, .invalidID, .unknownState, .nothingToUndo, .nothingToRedo, .undoConflict,
            .partNotFound, .notYourComment, .viewNotFound:
            return 1
        case .invalidDate, .emptyTitle, .titleTooLong, .bodyTooLong, .unsafeTitle, .unsafeBody, .badAssignee,
            .tooManyAssignees, .dateOutOfRange, .noSuchDate, .changeRefused, .badLabel, .unknownPriority, .tooMany,
            .emptyText, .textTooLong, .unsafeText, .badViewName, .badRule, .badTime, .unknownZone:
            return 64
        case .boardCorrupt, .logCorrupt, .newerSchema, .otherBoard, .notThisBoard, .mergeOldFormat, .mergeNoLog,
            .importRefused, .stateCorrupt:
            return 65
        case .unreadableWrite: return 70
        case .createFailed: return 73
        case .notARegularFile, .unsafeFile, .cannotSign, .readFailed, .saveFailed: return 74
        case .locked, .concurrentModification: return 75
        }
    }

    static func documented(_ error: SessionError) -> Int32 {
        switch error {
        case .noRemote: return 1
        case .importNoSuchList, .importNoSuchMember, .remoteLooksLikeOption, .remoteFolderMissing, .inviteLookalike: return 64
        case .otherBoard: return 65
        case .offline: return 75
        case .syncFailed(_, let reason):
            switch reason {
            case .badRemote: return 65
            case .local, .diskFull: return 74
            case .busy: return 75
            case .permission: return 77
            // The session says these in its own words (offline, another
            // board, a retry): reaching the report as a failure is a bug.
            case .unreachable, .otherBoard, .rejected: return 70
            }
        }
    }

    static func documented(_ error: CLIError) -> Int32 {
        switch error {
        case .invalidEnvironment, .dueAndNoDue, .nothingToEdit, .recurNeedsRule, .invalidLimit, .argumentNotUTF8,
            .boardNeedsTerminal,
            .boardDumbTerminal, .csvDelimiter, .csvHeaders, .importMember, .importMap, .servePort, .serveAddress,
            .serveNeedsInvites, .serveInviteAddress, .serveTLSPair, .serveAnyAddress, .serveInviteSelf, .checkAction,
            .checkArguments, .checkPlace, .commentOptions, .badLanguage:
            return 64
        case .serveNotInvited: return 1
        case .outputFailed: return 74
        case .serveMissing: return 70
        }
    }

    static let id = TaskID("3f2a9c1e-0000-4000-8000-000000000001")!
    static let other = TaskID("3f2a9c1e-0000-4000-8000-000000000002")!
    static let full = SystemCallError(call: "write", code: ENOSPC)

    /// One of each case, and of each variant a message tells apart.
    static let coreErrors: [PMError] = [
        .taskNotFound("zz"), .ambiguousID("3f", candidates: [id, other], titles: ["A", "B"]), .invalidID("!"),
        .unknownState("later"), .invalidDate("someday"), .emptyTitle, .titleTooLong(length: 600, limit: 500),
        .bodyTooLong(length: 20_000, limit: 10_000), .unsafeTitle("\t"), .unsafeBody("\u{1B}"), .badAssignee("a b"),
        .tooManyAssignees(limit: 20),
        .boardCorrupt(path: "/b.json", line: 3, column: 4, reason: .syntax),
        .boardCorrupt(path: "/b.json", line: nil, column: nil, reason: .empty),
        .logCorrupt(path: "/b.events.jsonl", line: 2, column: 1, reason: .empty),
        .newerSchema(path: "/b.json", found: 9, supported: 2), .otherBoard(path: "/c.json", found: id, expected: other),
        .notThisBoard(path: "/c.jsonl"), .mergeOldFormat(path: "/c.json"), .mergeNoLog(path: "/c.json", log: "/c.events.jsonl"),
        .notARegularFile(path: "/b.json"), .locked(LockHolder(pid: 42)), .locked(LockHolder(pid: 42, host: "elsewhere")),
        .locked(LockHolder(pid: 42, isPM: false)), .locked(nil), .unsafeFile(path: "/b.json.lock"),
        .cannotSign(path: "/key"), .readFailed(path: "/b.json", SystemCallError(call: "open", code: EACCES)),
        .createFailed(path: "/dir", SystemCallError(call: "mkdir", code: EROFS)),
        .saveFailed(path: "/b.json", full, file: .board), .saveFailed(path: "/u", full, file: .undoState),
        .saveFailed(path: "/r", full, file: .reminderLog), .saveFailed(path: "/o", full, file: .output),
        .saveFailed(path: "/s", full, file: .syncState), .saveFailed(path: "/n", full, file: .newsMark),
        .concurrentModification(path: "/b.json"), .nothingToUndo, .nothingToRedo,
        .undoConflict(UndoConflict(title: "T", by: "ana", at: "2026-11-21T10:00:00.000Z")),
        .undoConflict(UndoConflict(title: "T", by: "ana", at: "2026-11-21T10:00:00.000Z", deleted: true, redo: true)),
        .undoConflict(UndoConflict(title: "T")),
        .undoConflict(UndoConflict(title: "mine", by: "ana", at: "2026-11-21T10:00:00.000Z", deleted: true, view: true)),
        .undoConflict(UndoConflict(title: "mine", redo: true, view: true)), .dateOutOfRange("10000-01-01"),
        .noSuchDate("2026-02-30"),
        .changeRefused(.oversized(field: "author")), .changeRefused(.oversized(field: "body")),
        .changeRefused(.badAssignee), .changeRefused(.badTitle), .unreadableWrite(path: "/b.json"),
        .importRefused(path: "/t.json", line: 1, column: 2, problem: .notA(.trello)),
        .importRefused(path: "/t.json", line: nil, column: nil, problem: .tooLarge(64 << 20)),
        .stateCorrupt(path: "/u", line: 1, column: 1, reason: .syntax, file: .undoState),
        .stateCorrupt(path: "/r", line: 1, column: 1, reason: .syntax, file: .reminderLog),
        .stateCorrupt(path: "/s", line: 1, column: 1, reason: .syntax, file: .syncState),
        .stateCorrupt(path: "/n", line: 1, column: 1, reason: .syntax, file: .newsMark),
        .stateCorrupt(path: "/n", file: .newsMark), .stateCorrupt(path: "/u"),
        .badLabel("-x"), .unknownPriority("someday"), .tooMany(.labels, limit: 100), .tooMany(.items, limit: 200),
        .tooMany(.comments, limit: 200), .partNotFound(.items, "9"), .partNotFound(.comments, "9"), .emptyText(.items),
        .emptyText(.comments), .textTooLong(.items, length: 300, limit: 200),
        .textTooLong(.comments, length: 2000, limit: 1000), .unsafeText(.items, "\t"), .unsafeText(.comments, "\u{1B}"),
        .notYourComment(author: "ana"), .changeRefused(.badCardValue(field: "priority")), .badViewName("-v"),
        .viewNotFound("bugs"), .tooMany(.views, limit: 200), .changeRefused(.badView), .badRule("every x", part: "x"),
        .badTime("friday 13pm", part: "13pm"), .unknownZone("Europe/Pariss"),
    ]

    static let sessionErrors: [SessionError] = [
        .noRemote, .offline(target: "/share", waiting: 0), .offline(target: "/share", waiting: 3),
        .otherBoard(target: "/share", tasks: 2, synced: false, beside: "/b2.json"),
        .otherBoard(target: "/share", tasks: 2, synced: true, beside: "/b2.json"),
        .importNoSuchList(name: "Later", file: "/t.json", lists: ["To do", "Done"]),
        .importNoSuchMember(name: "zoe", file: "/t.json", members: []),
        .importNoSuchMember(name: "zoe", file: "-", members: ["ana"]), .remoteLooksLikeOption("--force"),
        .remoteFolderMissing("/nope"), .syncFailed(target: "/share", reason: .badRemote(target: "/share", detail: "a link")),
        .syncFailed(target: "/share", reason: .busy), .syncFailed(target: "/share", reason: .local(detail: "clone")),
        .syncFailed(target: "/share", reason: .permission(target: "/share", detail: "denied")),
        .syncFailed(target: "/share", reason: .diskFull(target: "/share", detail: "full")),
        .inviteLookalike(name: "j\u{0456}-woo", like: "ji-woo"),
    ]

    static let commandErrors: [CLIError] = [
        .invalidEnvironment("PM_NOW", "soon"), .dueAndNoDue, .nothingToEdit, .recurNeedsRule, .invalidLimit(0),
        .argumentNotUTF8(2),
        .outputFailed(full, done: .nothing), .outputFailed(full, done: .changedBoard),
        .outputFailed(full, done: .wroteFile("/out.csv")), .boardNeedsTerminal, .boardDumbTerminal("dumb"),
        .csvDelimiter("|"), .csvHeaders("fr"), .importMember("ana"), .importMap("x"), .servePort(70_000),
        .serveAddress("nope"), .serveNeedsInvites("10.0.0.1"), .serveMissing("/usr/bin/pm-serve"),
        .serveInviteAddress, .serveNotInvited("noah"), .serveTLSPair, .serveAnyAddress("0.0.0.0"), .serveInviteSelf("ji-woo"),
        .checkAction("frob"), .checkArguments("add"), .checkArguments("rename"), .checkArguments("move"),
        .checkArguments("done"), .checkPlace("9", count: 3), .commentOptions, .badLanguage("../x"),
    ]

    /// The codes the README's "Exit codes" table lists.
    static let readmeCodes: Set<Int32> = {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = (try? String(contentsOf: readme, encoding: .utf8)) ?? ""
        guard let start = text.range(of: "## Exit codes") else { return [] }
        let section = text[start.upperBound...].prefix { _ in true }.split(separator: "\n## ").first ?? ""
        return Set(
            section.split(separator: "\n").compactMap { line in
                line.hasPrefix("| ") ? Int32(line.dropFirst(2).prefix { $0.isNumber }) : nil
            })
    }()

    static func localizer(_ language: String) -> Localizer {
        Localizer(chain: LanguageResolver.messageChain(environment: ["LANG": language]))
    }

    /// Each message in English, French and Korean, and its status.
    func said(_ error: Error) -> [(language: String, lines: [String], status: Int32)] {
        ["en_US.UTF-8", "fr_FR.UTF-8", "ko_KR.UTF-8"].map { language in
            let (lines, status) = ErrorReport.describe(error, localizer: Self.localizer(language), reader: "ji-woo")
            return (language, lines, status.rawValue)
        }
    }

    func check(_ error: Error, documented: Int32) {
        let versions = said(error)
        let english = versions[0].lines
        for (language, lines, status) in versions {
            #expect(status == documented, "\(error): exit \(status), documented \(documented)")
            #expect(Self.readmeCodes.contains(status), "\(error): exit \(status) is not in the README's table")
            #expect(!lines.isEmpty && lines.allSatisfy { !$0.isEmpty }, "\(language) \(error): \(lines)")
            // A raw key (`error.taskNotFound`) or a placeholder left unfilled.
            for line in lines {
                #expect(
                    line.range(of: #"\b(error|sync|usage|corrupt|io|import)\.[a-z]"#, options: .regularExpression) == nil
                        && !line.contains("%@") && !line.contains("%d"),
                    "\(language) \(error): \(line)")
            }
            // From the language's own table: English never stands in.
            if language != "en_US.UTF-8" {
                #expect(lines.first != english.first, "\(language) \(error): said in English: \(lines)")
            }
        }
    }

    @Test func theReadmeListsTheExitCodes() {
        #expect(Self.readmeCodes == [0, 1, 64, 65, 70, 73, 74, 75, 77])
    }

    @Test func everyCoreErrorIsSaidInEveryLanguageWithItsDocumentedCode() {
        for error in Self.coreErrors { check(error, documented: Self.documented(error)) }
        let cases = Set(Self.coreErrors.map { String(describing: $0).prefix { $0 != "(" } })
        #expect(cases.count == 49, "one sample of each of PMError's cases: \(cases.sorted())")
    }

    @Test func everySessionErrorIsSaidInEveryLanguageWithItsDocumentedCode() {
        for error in Self.sessionErrors { check(error, documented: Self.documented(error)) }
    }

    @Test func everyCommandErrorIsSaidInEveryLanguageWithItsDocumentedCode() {
        for error in Self.commandErrors { check(error, documented: Self.documented(error)) }
        let cases = Set(Self.commandErrors.map { String(describing: $0).prefix { $0 != "(" } })
        #expect(cases.count == 27, "one sample of each of CLIError's cases: \(cases.sorted())")
    }

    /// An error pm does not know is a bug, said as one (70), never a trap.
    /// `pm serve` that cannot listen (a port in use): said with the system's reason, 73.
    @Test func aServerThatCannotListenSaysWhy() {
        let error = ServeError.cannotListen(address: "127.0.0.1", port: 8080, reason: "Address already in use")
        check(error, documented: 73)
        #expect(said(error)[0].lines == ["Could not listen on 127.0.0.1 port 8080: Address already in use."])
        check(ServeError.tls(path: "/etc/pm/key.pem", reason: "bad PEM"), documented: 74)
    }

    @Test func anUnknownErrorIsAnInternalError() {
        struct Surprise: Error {}
        check(Surprise(), documented: 70)
    }
}
