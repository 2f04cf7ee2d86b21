import Foundation
import Glibc
import PMCore
import PMTestSupport
import Testing

/// Signed events (``EventSeal``): a replica's events carry its key and
/// signature, so any copy may pass them on and nobody can make one in its
/// name — neither a forwarded event changed on the way, nor one written
/// into its file on the remote.
@Suite struct EventSealTests {
    static let now: Int64 = 1_795_435_200_000  // 2026-11-21T10:00:00Z
    static let alice = EventSigner(seed: Array(repeating: 1, count: 32))!
    static let mallory = EventSigner(seed: Array(repeating: 2, count: 32))!
    static let legacy = BoardStore.replicaID(host: "h", user: "u", boardKey: "/b/board.json")

    static func event(by replica: TaskID, title: String = "Fix login") -> Event {
        Event(
            id: TaskID("0e000000-0000-4000-8000-000000000001")!, replica: replica, author: "alice",
            at: "2026-11-21T09:00:00.000Z", clock: HybridClock(milliseconds: now - 3_600_000),
            task: TaskID("7a000000-0000-4000-8000-000000000001")!,
            kind: .created, fields: ["title": FieldChangeValues(new: .string(title), old: .null)], title: title)
    }

    static func admit(_ event: Event, from replica: TaskID?, forwarded: Bool = false) -> EventProblem? {
        var gate = EventGate(now: now)
        return gate.admit(event, replica: replica, forwarded: forwarded)
    }

    @Test func aSignedEventReadsBackAsItselfAndPassesFromAnyPath() throws {
        let sealed = Self.alice.seal(Self.event(by: Self.alice.replica))
        #expect(sealed.seal?.key.count == 32 && sealed.seal?.signature.count == 64)
        let line = EventCodec.line(sealed)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains("\"key\":\"") && text.contains("\"sig\":\""))
        let again = try EventCodec.decode(line: line.dropLast())
        #expect(again == sealed && EventSeal.isValid(again))
        #expect(Self.admit(again, from: Self.alice.replica) == nil)
        #expect(Self.admit(again, from: nil) == nil)
        #expect(Self.admit(again, from: nil, forwarded: true) == nil)
        // Signing is deterministic: the same event, the same line.
        #expect(EventCodec.line(Self.alice.seal(Self.event(by: Self.alice.replica))) == line)
    }

    @Test func aForwardedEventChangedOnTheWayIsRefused() {
        var changed = Self.alice.seal(Self.event(by: Self.alice.replica))
        changed.title = "Pay mallory"
        changed.fields["title"] = FieldChangeValues(new: .string("Pay mallory"), old: .null)
        #expect(Self.admit(changed, from: nil, forwarded: true) == .badSignature)
        #expect(Self.admit(changed, from: Self.alice.replica) == .badSignature)
        // A later clock (to win a field's race) breaks it just the same.
        var later = Self.alice.seal(Self.event(by: Self.alice.replica))
        later.clock = HybridClock(milliseconds: Self.now)
        #expect(Self.admit(later, from: nil, forwarded: true) == .badSignature)
    }

    @Test func nobodyMakesAnEventInASignedReplicasName() {
        // Unsigned, as if written into alice's file on the remote.
        #expect(Self.admit(Self.event(by: Self.alice.replica), from: Self.alice.replica) == .badSignature)
        // Signed by mallory's key but claiming alice: the key is not alice's.
        var forged = Self.event(by: Self.alice.replica)
        forged.seal = Self.mallory.seal(Self.event(by: Self.mallory.replica)).seal
        #expect(Self.admit(forged, from: Self.alice.replica) == .badSignature)
        // Mallory's signature over the event claiming alice, with mallory's key.
        var resigned = Self.event(by: Self.mallory.replica)
        resigned = Self.mallory.seal(resigned)
        resigned.replica = Self.alice.replica
        #expect(Self.admit(resigned, from: nil, forwarded: true) == .badSignature)
        // A signer seals only its own replica's events.
        #expect(Self.mallory.seal(Self.event(by: Self.alice.replica)).seal == nil)
    }

    @Test func replicasFromBeforeKeysPassOnlyFromTheirOwnFile() {
        let old = Self.event(by: Self.legacy)
        #expect(!EventSeal.isSignedReplica(Self.legacy))
        #expect(Self.admit(old, from: Self.legacy) == nil)
        #expect(Self.admit(old, from: nil, forwarded: true) == .unsignedForward)
        // A seal that is not its replica's is refused even on an old replica.
        var sealed = old
        sealed.seal = Self.alice.seal(Self.event(by: Self.alice.replica)).seal
        #expect(Self.admit(sealed, from: Self.legacy) == .badSignature)
    }

    @Test func aSignedReplicasIdIsItsKeysAndLooksLikeNoOtherId() {
        let id = Self.alice.replica.rawValue
        #expect(Array(id)[14] == "8" && Array(id)[19] == "b")
        #expect(EventSeal.isSignedReplica(Self.alice.replica))
        #expect(Self.alice.replica != Self.mallory.replica)
        #expect(EventSigner(seed: Array(repeating: 1, count: 32))?.replica == Self.alice.replica)
        #expect(EventSigner(seed: Array(repeating: 1, count: 31)) == nil)
        // Random (version 4) ids and name-based ones never look signed.
        for _ in 0..<200 {
            let random = PMEnvironment.randomID()
            #expect(!EventSeal.isSignedReplica(random))
        }
    }

    @Test func aKeyOrASignatureAloneOrMisspeltDoesNotRead() throws {
        let line = String(
            decoding: EventCodec.line(Self.alice.seal(Self.event(by: Self.alice.replica))).dropLast(), as: UTF8.self)
        let withoutSignature = line.replacing(#/,"sig":"[^"]*"/#, with: "")
        #expect(throws: (any Error).self) { try EventCodec.decode(line: Array(withoutSignature.utf8)[...]) }
        let withoutKey = line.replacing(#/,"key":"[^"]*"/#, with: "")
        #expect(throws: (any Error).self) { try EventCodec.decode(line: Array(withoutKey.utf8)[...]) }
        // Padding, another alphabet, a short key: not the one spelling pm writes.
        for bad in ["=", "+", "/"] {
            let spoilt = line.replacing(#/"key":"./#, with: "\"key\":\"" + bad)
            #expect(throws: (any Error).self) { try EventCodec.decode(line: Array(spoilt.utf8)[...]) }
        }
        let short = line.replacing(#/"key":"[^"]{4}/#, with: "\"key\":\"")
        #expect(throws: (any Error).self) { try EventCodec.decode(line: Array(short.utf8)[...]) }
    }

    @Test func aKeyIsMadeOnceKeptPrivateAndPutAsideWhenDamaged() throws {
        let directory = TemporaryDirectory()
        let store = ReplicaKeyStore(stateDirectory: directory.path + "/state", host: "h", boardKey: "/b", user: "ji-woo")
        #expect(store.existing() == nil)
        #expect(store.signer(creating: false) == nil)
        let first = try #require(store.signer())
        #expect(store.signer()?.replica == first.replica)
        #expect(
            ReplicaKeyStore(stateDirectory: directory.path + "/state", host: "h", boardKey: "/b", user: "ji-woo").existing()?
                .replica == first.replica)
        var status = stat()
        #expect(stat(store.path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        // Another user, board or machine: another key.
        #expect(
            ReplicaKeyStore(stateDirectory: directory.path + "/state", host: "h2", boardKey: "/b", user: "ji-woo").signer()?
                .replica != first.replica)
        // Damaged: kept aside, and a new key (a new replica) made.
        directory.write("state/" + String(store.path.split(separator: "/").last!), "garbage\n")
        #expect(store.existing() == nil)
        let second = try #require(store.signer())
        #expect(second.replica != first.replica)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.file("state"))
        #expect(names.contains { $0.contains(".damaged-") })
    }

    @Test func aStoreWithAKeySealsEveryEventItWrites() throws {
        let directory = TemporaryDirectory()
        var store = BoardStore(path: directory.path + "/board.json", sleep: { _ in })
        store.signer = Self.alice
        for title in ["One", "Two"] {
            try store.update(newBoardID: PMEnvironment.randomID(), replica: Self.alice.replica) { board in
                _ = try board.add(
                    title: title, id: PMEnvironment.randomID(), eventID: PMEnvironment.randomID(), by: "alice",
                    at: "2026-11-21T09:00:00.000Z")
            }
        }
        let events = try store.eventLog().readAll().events.filter { $0.kind != .other(Event.boardKind) }
        #expect(events.count == 2 && events.allSatisfy { $0.replica == Self.alice.replica && EventSeal.isValid($0) })
    }
}
