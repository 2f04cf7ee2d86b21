import Foundation
import PMTestSupport
import Testing

/// Changes that reached a copy by a side path (`pm merge` of a teammate's
/// file, a sync tool's conflicted copy) are passed on to the remote, so every
/// copy converges even when their author loses them (DESIGN.md §9) — and
/// forwarding never lets a copy speak for another: every forwarded event
/// carries its own replica's signature, checked by every reader.
@Suite struct ForwardingTests {
    typealias Copy = SyncEndToEndTests.Copy

    struct Team {
        var pm: PMBinary
        var target: String
        var a: Copy
        var b: Copy
        var c: Copy
    }

    /// Three teammates on one remote (a folder, or a bare git repository);
    /// b made two changes it never synced, and a merged b's file.
    static func team(git: Bool = false) throws -> Team {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let target = pm.home.file(git ? "team.git" : "share")
        if git { _ = try runGit(["init", "-q", "--bare", target]) }
        let people = ["camille", "ji-woo", "noah"].map { Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
        for person in people { #expect(try person.run(["remote", "add", target]).status == 0) }
        try people[0].run(["add", "Plan the week"])
        for person in people { #expect(try person.run(["sync"]).status == 0) }
        try people[1].run(["add", "Only on ji-woo's laptop"])
        try people[1].run(["add", "Also never synced", "--due", "2030-01-02"])
        let merged = try people[0].run(["merge", people[1].board])
        #expect(merged.status == 0 && merged.stdout.contains("2"), "\(merged)")
        return Team(pm: pm, target: target, a: people[0], b: people[1], c: people[2])
    }

    static func titles(_ copy: Copy) throws -> Set<String> {
        let text = try copy.run(["list", "--json"]).stdout
        let tasks = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]] ?? []
        return Set(tasks.compactMap { $0["title"] as? String })
    }

    @Test(arguments: [false, true])
    func changesMergedFromATeammatesFileReachEveryoneAfterTheyAreLost(git: Bool) throws {
        let team = try Self.team(git: git)
        // ji-woo's laptop is lost before it ever synced.
        try FileManager.default.removeItem(atPath: (team.b.board as NSString).deletingLastPathComponent)
        let sync = try team.a.run(["sync"])
        #expect(sync.status == 0)
        #expect(sync.stdout.contains("Passed on 2 changes"), "\(sync.stdout)")
        #expect(try team.c.run(["sync"]).status == 0)
        #expect(try Self.titles(team.c).isSuperset(of: ["Only on ji-woo's laptop", "Also never synced", "Plan the week"]))
        // Ji-woo starts again on a new laptop and gets them back too.
        #expect(try team.b.run(["sync"]).status == 0)
        #expect(team.a.folded == team.c.folded && team.b.folded == team.a.folded)
        // Passed on once: the next sync has nothing to pass on.
        let again = try team.a.run(["sync"])
        #expect(!again.stdout.contains("Passed on"), "\(again.stdout)")
        // History names who made them, not who passed them on.
        let history = try team.c.run(["history"]).stdout
        #expect(history.contains("ji-woo") && history.contains("Only on ji-woo's laptop"))
    }

    @Test func whatTheAuthorSyncedItselfIsNotPassedOnAgain() throws {
        let team = try Self.team()
        #expect(try team.b.run(["sync"]).status == 0)
        let sync = try team.a.run(["sync"])
        #expect(sync.status == 0 && !sync.stdout.contains("Passed on"), "\(sync.stdout)")
        #expect(!FileManager.default.fileExists(atPath: team.target + "/forwarded"))
    }

    @Test func theMessageIsInTheReadersLanguage() throws {
        let team = try Self.team()
        let french = try team.a.run(["sync"], ["LANG": "fr_FR.UTF-8", "LANGUAGE": ""])
        #expect(french.stdout.contains("2 modifications arrivées ici par un autre chemin"), "\(french.stdout)")
        try team.b.run(["add", "Third"])
        #expect(try team.c.run(["merge", team.b.board]).status == 0)
        let korean = try team.c.run(["sync"], ["LANG": "ko_KR.UTF-8", "LANGUAGE": ""])
        #expect(korean.stdout.contains("변경 1개를") && korean.stdout.contains("전달했습니다"), "\(korean.stdout)")
    }

    /// A conflicted copy on a folder remote is set aside once read: what
    /// only it held is passed on by the copy that read it.
    @Test func whatOnlyAConflictedCopyHeldIsPassedOn() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let people = ["camille", "ji-woo", "noah"].map { Copy(pm: pm, board: pm.home.file("\($0)/board.json"), user: $0) }
        for person in people { try person.run(["remote", "add", share]) }
        try people[0].run(["add", "Plan the week"])
        for person in people { try person.run(["sync"]) }
        try people[1].run(["add", "In a conflicted copy only"])
        try people[1].run(["sync"])
        // A sync tool turned ji-woo's new segment into a conflicted copy, and ji-woo's laptop is lost.
        let events = RemoteEvents(folder: share + "/events")
        let replica = try #require(events.replicas.first { events.text(of: $0).contains("In a conflicted copy only") })
        let segment = try #require(events.segments(of: replica).last)
        try FileManager.default.moveItem(
            atPath: segment, toPath: String(segment.dropLast(6)) + ".sync-conflict-20261124-101010-ABCDEF.jsonl")
        try FileManager.default.removeItem(atPath: (people[1].board as NSString).deletingLastPathComponent)
        let read = try people[0].run(["sync"])
        #expect(read.stdout.contains("Passed on 1 change"), "\(read.stdout)")
        try people[2].run(["sync"])
        #expect(try Self.titles(people[2]).contains("In a conflicted copy only"))
        #expect(people[0].folded == people[2].folded)
    }

    /// The remote lost what this copy passed on (put back from a backup):
    /// the next sync passes it on again.
    @Test func forwardedFilesLostFromTheRemoteArePassedOnAgain() throws {
        let team = try Self.team()
        try FileManager.default.removeItem(atPath: (team.b.board as NSString).deletingLastPathComponent)
        #expect(try team.a.run(["sync"]).stdout.contains("Passed on 2"))
        try FileManager.default.removeItem(atPath: team.target + "/forwarded")
        let again = try team.a.run(["sync"])
        #expect(again.status == 0 && again.stdout.contains("Passed on 2"), "\(again.stdout)")
        // Under a new number: a copy that read the lost file never reads its number again.
        let files = (FileManager.default.enumerator(atPath: team.target + "/forwarded")?.allObjects as? [String]) ?? []
        #expect(files.contains { $0.hasSuffix("/0/0/2.jsonl") } && !files.contains { $0.hasSuffix("/0/0/1.jsonl") }, "\(files)")
        try team.c.run(["sync"])
        #expect(try Self.titles(team.c).contains("Only on ji-woo's laptop"))
    }

    /// Forwarding is no way to speak for another copy: a forwarded event
    /// changed on the way, one claiming a replica without its signature, and
    /// one written into another replica's own folder are left out and named;
    /// the genuine ones still sync.
    @Test func nobodyCanForgeATeammatesChangeThroughTheRemote() throws {
        let team = try Self.team()
        try FileManager.default.removeItem(atPath: (team.b.board as NSString).deletingLastPathComponent)
        try team.a.run(["sync"])
        let forwarded = try #require(
            (FileManager.default.enumerator(atPath: team.target + "/forwarded")?.allObjects as? [String])?
                .first { $0.hasSuffix(".jsonl") })
        let path = team.target + "/forwarded/" + forwarded
        let genuine = try String(contentsOfFile: path, encoding: .utf8)
        let line = try #require(genuine.split(separator: "\n").first { $0.contains("Only on ji-woo's laptop") })
        // Mallory's own forwarding folder: ji-woo's event with another title; ji-woo's
        // replica claimed without any signature; and an event in camille's own folder signed by nobody.
        let mallory = "0badf00d-0000-8000-b000-00000000abcd"
        let changed = line.replacingOccurrences(of: "Only on ji-woo's laptop", with: "Pay mallory")
            .replacing(#/"id":"[0-9a-f-]{36}"/#, with: "\"id\":\"11111111-2222-4333-8444-555555555555\"")
        let unsigned = line.replacing(#/,"key":"[^"]*"/#, with: "")
            .replacing(#/,"sig":"[^"]*"/#, with: "")
            .replacingOccurrences(of: "Only on ji-woo's laptop", with: "Unsigned in ji-woo's name")
            .replacing(#/"id":"[0-9a-f-]{36}"/#, with: "\"id\":\"11111111-2222-4333-8444-666666666666\"")
        try FileManager.default.createDirectory(
            atPath: team.target + "/forwarded/" + mallory + "/0/0", withIntermediateDirectories: true)
        try (changed + "\n" + unsigned + "\n").write(
            toFile: team.target + "/forwarded/" + mallory + "/0/0/1.jsonl", atomically: true, encoding: .utf8)
        let events = RemoteEvents(folder: team.target + "/events")
        let camille = try #require(events.replicas.first { events.text(of: $0).contains("Plan the week") })
        let own = unsigned.replacing(#/"replica":"[0-9a-f-]{36}"/#, with: "\"replica\":\"\(camille)\"")
            .replacingOccurrences(of: "Unsigned in ji-woo's name", with: "Unsigned in camille's name")
            .replacingOccurrences(of: "666666666666", with: "777777777777")
        try FileManager.default.createDirectory(
            atPath: team.target + "/events/" + camille + "/0/f", withIntermediateDirectories: true)
        try (own + "\n").write(toFile: team.target + "/events/" + camille + "/0/f/f.jsonl", atomically: true, encoding: .utf8)
        let sync = try team.c.run(["sync"])
        #expect(sync.status == 0, "\(sync)")
        #expect(sync.stderr.contains("Left out 2 lines") && sync.stderr.contains("Left out 1 line"), "\(sync.stderr)")
        let titles = try Self.titles(team.c)
        #expect(titles.contains("Only on ji-woo's laptop") && titles.contains("Plan the week"))
        #expect(titles.isDisjoint(with: ["Pay mallory", "Unsigned in ji-woo's name", "Unsigned in camille's name"]))
        // And pm merge of such a file refuses them just the same.
        let file = team.pm.home.file("mallory.jsonl")
        try (changed + "\n" + own + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        _ = try team.c.run(["merge", file])
        #expect(try Self.titles(team.c).isDisjoint(with: ["Pay mallory", "Unsigned in camille's name"]))
    }

    /// Every event a copy makes is signed by a key kept in the user's state
    /// directory, readable by them alone, never beside the board.
    @Test func eachCopySignsWithAKeyOnlyItsUserCanRead() throws {
        let pm = PMBinary()
        let copy = Copy(pm: pm, board: pm.home.file("me/board.json"), user: "camille")
        try copy.run(["add", "Signed"])
        let log = try String(contentsOfFile: pm.home.file("me/board.events.jsonl"), encoding: .utf8)
        let line = try #require(log.split(separator: "\n").last)
        #expect(line.contains("\"key\":\"") && line.contains("\"sig\":\""))
        let beside = try FileManager.default.contentsOfDirectory(atPath: pm.home.file("me"))
        #expect(!beside.contains { $0.hasPrefix("key-") })
        let state = pm.home.file(".local/state/pm")
        let key = try #require(try FileManager.default.contentsOfDirectory(atPath: state).first { $0.hasPrefix("key-") })
        let attributes = try FileManager.default.attributesOfItem(atPath: state + "/" + key)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // Reading never makes a key.
        let other = Copy(pm: pm, board: pm.home.file("other/board.json"), user: "noah")
        try other.run(["list"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("key-") }.count == 1)
    }
}
