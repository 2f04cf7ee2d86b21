import Foundation
import PMCore
import PMKit
import PMTestSupport
import Testing

/// Personal links to the web board (DESIGN.md §16): only a hash is kept, a
/// new link replaces the old, revoking takes it away, and each person acts
/// with their own name, undo history, news mark and key.
@Suite struct InviteTests {
    func session(_ dir: TemporaryDirectory) -> BoardSession {
        let ids = CountingIDs()
        return BoardSession(
            environment: PMEnvironment(
                now: { Date(timeIntervalSince1970: 1_795_000_000) }, makeID: { ids.make() }, timeZone: .utc, user: "ji-woo",
                boardPath: dir.file("board.json"), stateDirectory: dir.file("state")))
    }

    @Test func aLinkIsKeptOnlyAsItsHashAndANewOneReplacesIt() throws {
        let dir = TemporaryDirectory()
        let session = session(dir)
        let first = try session.invite("camille")
        #expect(first.name == "camille" && first.token.count == 64)
        let text = try String(contentsOfFile: session.inviteStore().path, encoding: .utf8)
        #expect(!text.contains(first.token), "the token itself is never stored")
        #expect(try session.inviteStore().load().invite(hash: BoardSession.tokenHash(first.token))?.name == "camille")
        let second = try session.invite("camille")
        let list = try session.inviteStore().load()
        #expect(list.invites.count == 1)
        #expect(list.invite(hash: BoardSession.tokenHash(first.token)) == nil, "the old link stops working")
        #expect(list.invite(hash: BoardSession.tokenHash(second.token))?.name == "camille")
        #expect(try session.revokeInvite("camille"))
        #expect(try !session.revokeInvite("camille"))
        #expect(try session.inviteStore().load().invites.isEmpty)
        #expect(throws: PMError.self) { try session.invite("-x") }
    }

    @Test func aNameThatReadsLikeAnothersGetsNoLink() throws {
        let dir = TemporaryDirectory()
        let session = session(dir)
        _ = try session.invite("camille")
        for name in ["j\u{0456}-woo", "Ji-Woo", "Camille", "c\u{0430}mille"] {
            #expect(throws: SessionError.self, "\(name)") { try session.invite(name) }
        }
        #expect(try session.inviteStore().load().invites.map(\.name) == ["camille"], "nothing was added")
        #expect(try session.invite("noah").name == "noah")
    }

    @Test func aDamagedListIsSaidAsSuchAndLetsNobodyIn() throws {
        let dir = TemporaryDirectory()
        let session = session(dir)
        _ = try session.invite("camille")
        try Data("{\"invites\": [{\"name\": 1}]}".utf8).write(to: URL(fileURLWithPath: session.inviteStore().path))
        #expect {
            try session.inviteStore().load()
        } throws: { error in
            guard case PMError.stateCorrupt(_, _, _, _, let file) = error else { return false }
            return file == .invites
        }
    }

    @Test func eachPersonActsAsThemselves() throws {
        let dir = TemporaryDirectory()
        let session = session(dir)
        let camille = session.acting(as: "camille")
        #expect(session.acting(as: "ji-woo") === session)
        let added = try camille.add(title: "From Camille")
        let history = try session.history(limit: 1)
        #expect(history.first?.by == "camille" && added.task.title == "From Camille")
        let board = try session.loadBoard()
        #expect(camille.undoAvailability(on: board).canUndo)
        #expect(!session.undoAvailability(on: board).canUndo, "ji-woo has nothing of theirs to undo")
        #expect(camille.replica != session.replica, "each signs with their own key")
        #expect(camille.newsMarkPath(boardID: board.id) != session.newsMarkPath(boardID: board.id))
    }
}

/// A reader that keeps the board open (`pm serve`) folds in what the log
/// gained instead of reading the board again, and ends where a fresh read does.
@Suite struct CatchUpTests {
    @Test func aKeptBoardCatchesUpToAFreshRead() throws {
        let dir = TemporaryDirectory()
        let ids = CountingIDs()
        let session = BoardSession(
            environment: PMEnvironment(
                now: { Date(timeIntervalSince1970: 1_795_000_000) }, makeID: { ids.make() }, timeZone: .utc, user: "ji-woo",
                boardPath: dir.file("board.json"), stateDirectory: dir.file("state")))
        let first = try session.add(title: "one").task
        var kept = try #require(try session.store().load())
        _ = try session.move(.id(first.id), to: .doing)
        _ = try session.acting(as: "camille").add(title: "two")
        try session.store().catchUp(&kept)
        let fresh = try #require(try session.store().load())
        #expect(kept.tasks.map(\.title) == fresh.tasks.map(\.title))
        #expect(kept.tasks.map(\.state) == fresh.tasks.map(\.state))
        #expect(kept.log.length == fresh.log.length && kept.tasks.map(\.state) == [.doing, .todo])
    }
}
