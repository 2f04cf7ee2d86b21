import Foundation
import PMTestSupport
import Testing

/// Who a change comes from, and which copies a shared board takes (issue
/// 43, item 9): through the binary, a real folder remote and real keys.
@Suite struct ReplicaPersonTests {
    typealias Copy = SyncEndToEndTests.Copy

    /// Mallory signs a change with her own key and names alice as its
    /// author: every copy shows whose copy it came from — history, its
    /// JSON, news and the exported page — in each reader's language.
    @Test func aChangeSignedWithAnothersKeyNamesWhoseCopyItCameFrom() throws {
        let (pm, _, copies) = try SharedFolderBoard.make(["alice", "mallory", "bob"])
        let (alice, mallory, bob) = (copies[0], copies[1], copies[2])
        let id = try alice.id(["add", "Budget"])
        try alice.run(["sync"])
        try mallory.run(["sync"])
        try mallory.run(["add", "Her own"])
        #expect(try alice.run(["news"]).status == 0, "alice has looked")
        // Her key, put under alice's name in her own state folder: her copy
        // signs with it as before, and the change names alice.
        let state = pm.home.file(".local/state/pm")
        let key = try #require(
            try FileManager.default.contentsOfDirectory(atPath: state).first {
                $0.hasPrefix("key-") && $0.hasSuffix("-mallory")
            })
        try FileManager.default.copyItem(
            atPath: state + "/" + key, toPath: state + "/" + key.dropLast("mallory".count) + "alice")
        let forged = try mallory.run(["edit", id, "--title", "Budget (cut by half)"], ["PM_USER": "alice"])
        #expect(forged.status == 0, "\(forged.stderr)")
        #expect(try mallory.run(["sync"]).status == 0)
        for copy in [alice, bob] { #expect(try copy.run(["sync"]).status == 0) }
        for copy in [alice, bob, mallory] {
            let history = try copy.run(["history"]).stdout
            #expect(history.contains("alice (from mallory’s copy)"), "\(copy.user): \(history)")
            #expect(history.components(separatedBy: "’s copy").count == 2, "only the forged change: \(history)")
            let json = try copy.run(["history", "--json"]).stdout
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
            let marked = entries.filter { $0["copyOf"] != nil }
            #expect(marked.count == 1 && marked.first?["by"] as? String == "alice", "\(json)")
            #expect(marked.first?["copyOf"] as? String == "mallory", "\(json)")
        }
        let french = try bob.run(["history"], ["LANG": "fr_FR.UTF-8"]).stdout
        #expect(french.contains("alice (via la copie de mallory)"), "\(french)")
        let korean = try bob.run(["history"], ["LANG": "ko_KR.UTF-8"]).stdout
        #expect(korean.contains("alice(mallory의 사본에서)"), "\(korean)")
        let news = try alice.run(["news", "--color", "never"]).stdout
        #expect(news.contains("alice (from mallory’s copy)") && news.contains("Budget (cut by half)"), "\(news)")
        let page = pm.home.file("page.html")
        #expect(try bob.run(["export", "html", "--output", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("alice (from mallory’s copy)"), "\(html)")
    }

    /// An unsigned copy that first writes after the board's copies began
    /// signing (a forger writing a file under a name-based id, or a pm from
    /// before keys that joins late) is left out on every copy, and said; an
    /// older teammate whose copy was there before keys keeps working.
    @Test(arguments: [
        ("en_US.UTF-8", "Left out 2 changes by camille"),
        ("fr_FR.UTF-8", "2 modifications faites au nom de camille laissées de côté"),
        ("ko_KR.UTF-8", "camille 이름으로 된 변경 2개를 받지 않았습니다"),
    ])
    func anUnsignedCopyNewAfterSigningIsLeftOutOnEveryCopy(language: String, said: String) throws {
        let team = try HostileRemoteTests.team()
        let task = try #require(team.genuine["task"] as? String)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let planted = [
            team.line {
                $0["replica"] = team.newcomer
                $0["hlc"] = [now, 0]
                $0["task"] = UUID().uuidString.lowercased()
                $0["title"] = "Planted"
                $0["fields"] = ["title": ["new": "Planted", "old": NSNull()], "state": ["new": "todo", "old": NSNull()]]
            },
            team.line {
                $0["replica"] = team.newcomer
                $0["hlc"] = [now + 1, 0]
                $0["kind"] = "edited"
                $0["task"] = task
                $0["title"] = "Renamed by nobody"
                $0["fields"] = ["title": ["new": "Renamed by nobody", "old": "Genuine"]]
            },
        ]
        try team.append(planted, to: "\(team.newcomer).jsonl")
        #expect(try team.b.run(["news"]).status == 0, "looked before")
        let sync = try team.b.run(["sync"], ["LANG": language])
        #expect(sync.status == 0 && sync.stderr.contains(said), "\(sync.stdout)\(sync.stderr)")
        if language.hasPrefix("en") { #expect(sync.stdout.contains("received: 0"), "\(sync.stdout)") }
        let list = try team.b.run(["list"]).stdout
        #expect(!list.contains("pm news"), "what is left out is no news: \(list)")
        for copy in [team.a, team.b] {
            #expect(try copy.run(["sync"]).status == 0)
            for command in [["list", "--json"], ["history"], ["history", "--json"], ["news", "--peek"]] {
                let out = try copy.run(command).stdout
                #expect(!out.contains("Planted") && !out.contains("Renamed by nobody"), "\(command): \(out)")
            }
        }
        #expect(team.a.folded == team.b.folded)
        #expect(FileManager.default.fileExists(atPath: team.events + "/\(team.newcomer).jsonl"), "nothing deleted")
    }

    /// The older teammate's copy, there before keys (its first change comes
    /// before the first signed one), is taken before and after.
    @Test func anOlderTeammatesCopyFromBeforeKeysKeepsWorking() throws {
        let team = try HostileRemoteTests.team()
        let clock = try #require(team.genuine["hlc"] as? [Int64])
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let older = UUID().uuidString.lowercased()
        let lines = [
            team.line {
                $0["hlc"] = [clock[0] - 60_000, 0]
                $0["task"] = older
                $0["title"] = "From before keys"
                $0["fields"] = [
                    "title": ["new": "From before keys", "old": NSNull()], "state": ["new": "todo", "old": NSNull()],
                ]
            },
            team.line {
                $0["hlc"] = [now, 0]
                $0["kind"] = "edited"
                $0["task"] = older
                $0["fields"] = ["body": ["new": "Written after signing began", "old": ""]]
            },
        ]
        try team.append(lines, to: "\(team.legacy).jsonl")
        let sync = try team.b.run(["sync"])
        #expect(sync.status == 0 && sync.stdout.contains("received: 2") && !sync.stderr.contains("Left out"), "\(sync.stderr)")
        let shown = try team.b.run(["show", String(older.prefix(8)), "--json"]).stdout
        #expect(shown.contains("Written after signing began"), "\(shown)")
    }

    /// A copy that cannot make its key (its state folder cannot be made)
    /// cannot change a board whose copies sign: every copy would leave its
    /// change out. It is said, and nothing changes.
    @Test func aCopyThatCannotSignIsToldBeforeItsChangeIsLost() throws {
        var pm = PMBinary()
        try pm.run(["add", "Signed"])
        let before = pm.boardBytes()
        try "".write(toFile: pm.home.file("not-a-folder"), atomically: true, encoding: .utf8)
        pm.environment["XDG_STATE_HOME"] = pm.home.file("not-a-folder/state")
        for (language, said) in [
            ("en_US.UTF-8", "could not write this copy’s signing key"), ("fr_FR.UTF-8", "n’a pas pu écrire la clé"),
            ("ko_KR.UTF-8", "서명 키"),
        ] {
            let run = try pm.run(["add", "Unsigned?"], ["LANG": language])
            #expect(run.status == 74 && run.stderr.contains(said), "\(language): \(run.status) \(run.stderr)")
        }
        #expect(pm.boardBytes() == before)
    }
}
