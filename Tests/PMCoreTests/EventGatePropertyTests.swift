import PMCore
import PMTestSupport
import Testing

/// The gate's promise (RELIABILITY.md): an event is admitted only if a board
/// holding it is one pm reads back. Generated hostile lines go through the
/// real decoder and the gate; whatever is admitted, folded in any order,
/// makes a board that encodes, reads back as itself, and is the same board
/// whatever the order; and every admitted event's line reads back as itself.
@Suite struct EventGatePropertyTests {
    static let replica = "8a1e0000-0000-4000-8000-00000000c0de"
    static let now: Int64 = 1_795_435_200_000  // 2026-11-21T10:00:00Z

    /// The events a gate admits from `lines`, in file order.
    static func admitted(_ lines: [String]) -> (events: [Event], refused: Int) {
        var gate = EventGate(now: now)
        var events: [Event] = []
        var refused = 0
        for line in lines {
            guard let event = try? EventCodec.decode(line: Array(line.utf8)[...]),
                gate.admit(event, replica: TaskID(replica)) == nil
            else {
                refused += 1
                continue
            }
            events.append(event)
        }
        return (events, refused)
    }

    @Test(arguments: Array(UInt64(1)...UInt64(40)))
    func admittedEventsAlwaysMakeABoardPmReadsBack(seed: UInt64) throws {
        var generator = HostileEvents(random: SeededGenerator(seed: seed), replica: Self.replica, now: Self.now)
        let lines = generator.lines(120)
        let (events, refused) = Self.admitted(lines)
        #expect(events.count >= 4 && refused > 0, "seed \(seed): the generator should make both kinds")
        for event in events {
            let line = EventCodec.line(event)
            #expect((try? EventCodec.decode(line: line.dropLast())) == event, "seed \(seed): a line that does not read back")
        }
        var random = SeededGenerator(seed: seed &* 7919)
        var first: [UInt8]?
        for _ in 0..<4 {
            let folded = FoldedTasks.fold(events.shuffled(using: &random))
            var board = Board(id: try #require(TaskID("b0a4d000-0000-4000-8000-000000000001")))
            board.tasks = folded.ordered
            let ordered = FoldedTasks.inMergeOrder(events)
            board.log = LogPosition(events: events.count, length: 0, newest: ordered.last)
            let chunks = try #require(BoardEncoder.encodeCheckedChunks(board), "seed \(seed): a board pm would refuse")
            let bytes = Array(chunks.joined())
            let again = try BoardDecoder.decode(bytes, path: "board.json")
            #expect(again.tasks == board.tasks, "seed \(seed): the board does not read back as itself")
            if let first { #expect(first == bytes, "seed \(seed): the order of arrival changed the board") }
            first = bytes
        }
    }

    /// Each rule of the gate, one by one, on an otherwise genuine event.
    @Test func eachRuleRefusesWhatPmWouldNotReadBack() throws {
        let task = "5a5a0000-0000-4000-8000-000000000001"
        func event(_ fields: String, at: String = "2026-11-21T10:00:00.000Z", hlc: String = "[1795435200000,0]") -> String {
            "{\"at\":\"\(at)\",\"by\":\"camille\",\"fields\":{\(fields)},\"hlc\":\(hlc),"
                + "\"id\":\"e0000000-0000-4000-8000-000000000001\","
                + "\"kind\":\"edited\",\"replica\":\"\(Self.replica)\",\"task\":\"\(task)\"}"
        }
        let genuine = event("\"body\":{\"new\":\"ok\",\"old\":\"\"}")
        #expect(Self.admitted([genuine]).events.count == 1)
        let refused = [
            event("\"conflicts\":{\"new\":1,\"old\":null}"), event("\"restored\":{\"new\":true,\"old\":null}"),
            event("\"updatedAt\":{\"new\":\"x\",\"old\":null}"), event("\"id\":{\"new\":\"x\",\"old\":null}"),
            event("\"body\":{\"new\":\"ok\",\"old\":\"\"}", at: "2026-02-30T10:00:00.000Z"),
            event("\"body\":{\"new\":\"ok\",\"old\":\"\"}", at: "2026-11-21T10:00:00"),
            event("\"title\":{\"new\":\"  \",\"old\":\"x\"}"),
            event("\"title\":{\"new\":\"\(String(repeating: "t", count: 201))\",\"old\":\"x\"}"),
            event("\"createdAt\":{\"new\":\"yesterday\",\"old\":null}"),
            event("\"body\":{\"new\":\"ok\",\"old\":\"\"}", hlc: "[\(Self.now + 31 * 86_400_000),0]"),
        ]
        for line in refused { #expect(Self.admitted([line]).events.isEmpty, "\(line)") }
        // An escape in a title is data, as in a board file: taken, and shown escaped.
        #expect(Self.admitted([event("\"title\":{\"new\":\"\\u001b[2J\",\"old\":\"x\"}")]).events.count == 1)
        // Thirty days is the tolerance; a clock a week fast still comes in.
        #expect(
            Self.admitted([event("\"body\":{\"new\":\"ok\",\"old\":\"\"}", hlc: "[\(Self.now + 7 * 86_400_000),0]")]).events.count
                == 1)
        // The same id again with other content: the first stands.
        let other = genuine.replacingOccurrences(of: "\"new\":\"ok\"", with: "\"new\":\"other\"")
        #expect(Self.admitted([genuine, other, genuine]).events.count == 2)
    }

    /// Clocks never pass what a board holds: the counter carries into the
    /// milliseconds, and a clock seen far ahead is followed only so far.
    @Test func clocksCarryAndFollowOnlySoFar() {
        let edge = HybridClock(milliseconds: Self.now, counter: HybridClock.counterLimit)
        #expect(HybridClock.tick(after: edge, now: Self.now) == HybridClock(milliseconds: Self.now + 1, counter: 0))
        let end = HybridClock(milliseconds: HybridClock.maximumMilliseconds, counter: HybridClock.counterLimit)
        #expect(end.successor == end)
        let fast = HybridClock(milliseconds: Self.now + 2 * 86_400_000, counter: 3)
        #expect(HybridClock.tick(after: fast, now: Self.now) == HybridClock(milliseconds: fast.milliseconds, counter: 4))
        let far = HybridClock(milliseconds: Self.now + 20 * 86_400_000, counter: 0)
        let followed = HybridClock.tick(after: far, now: Self.now)
        #expect(followed.milliseconds == Self.now + HybridClock.adoptionLimit + 1)
    }
}
