import Foundation
import Testing

/// A team moving its board from a folder to git (issue 44, item 4): the
/// first sync with the new remote passes on the teammates' changes that
/// came through the old one, and says that, not "another way (pm merge, a
/// conflicted copy)".
@Suite struct RemoteSwitchTests {
    typealias Copy = SyncEndToEndTests.Copy

    @Test(arguments: [("en_US.UTF-8", "came through the previous remote"), ("fr_FR.UTF-8", "par la cible précédente")])
    func changesPassedOnAfterAChangeOfRemoteAreSaidToComeFromTheOldOne(language: String, words: String) throws {
        var pm = PMBinary(language: language)
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let ana = Copy(pm: pm, board: pm.home.file("ana/board.json"), user: "ana")
        let ben = Copy(pm: pm, board: pm.home.file("ben/board.json"), user: "ben")
        for copy in [ana, ben] { try copy.run(["remote", "add", share]) }
        try ana.run(["add", "Ana's"])
        try ana.run(["sync"])
        try ben.run(["sync"])
        for n in 1...2 { try ben.run(["add", "Ben's \(n)"]) }
        try ben.run(["sync"])
        try ana.run(["sync"])
        let bare = pm.home.file("team.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        #expect(try ana.run(["remote", "add", bare]).status == 0)
        let first = try ana.run(["sync"])
        #expect(first.status == 0 && first.stdout.contains(words) && first.stdout.contains(share), "\(first.stdout)")
        #expect(!first.stdout.contains("pm merge"), "\(first.stdout)")
        // Said once: the next sync is an ordinary one.
        #expect(!(try ana.run(["sync"]).stdout.contains(words)))
        try ben.run(["remote", "add", bare])
        #expect(try ben.run(["sync"]).status == 0)
        #expect(ana.folded == ben.folded)
    }

    /// What came through the old remote is said so; what `pm merge` brought
    /// before the switch is said as reaching this copy another way, not
    /// credited to the old remote.
    @Test func aMergeBeforeTheSwitchIsNotSaidToComeThroughTheOldRemote() throws {
        var pm = PMBinary()
        pm.environment["PM_NOW"] = nil
        let share = pm.home.file("share")
        let (ana, ben, carl) = (
            Copy(pm: pm, board: pm.home.file("ana/board.json"), user: "ana"),
            Copy(pm: pm, board: pm.home.file("ben/board.json"), user: "ben"),
            Copy(pm: pm, board: pm.home.file("carl/board.json"), user: "carl")
        )
        for copy in [ana, ben, carl] { try copy.run(["remote", "add", share]) }
        try ana.run(["add", "Ana's"])
        for copy in [ana, ben, carl] { try copy.run(["sync"]) }
        for n in 1...2 { try ben.run(["add", "Ben's \(n)"]) }
        try ben.run(["sync"])
        try ana.run(["sync"])
        // Carl never syncs these three: Ana reads them from his file.
        for n in 1...3 { try carl.run(["add", "Carl's \(n)"]) }
        #expect(try ana.run(["merge", carl.board]).status == 0)
        let bare = pm.home.file("team.git")
        _ = try runGit(["init", "-q", "--bare", bare])
        #expect(try ana.run(["remote", "add", bare]).status == 0)
        let first = try ana.run(["sync"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains("Passed on 2 changes that came through the previous remote, \(share)"), "\(first.stdout)")
        #expect(first.stdout.contains("Passed on 3 changes that reached this copy another way (pm merge"), "\(first.stdout)")
    }
}
