import PMICU

/// What lets `pm history` read only the end of the log and still list the
/// newest changes in merge order (DESIGN.md §9), kept beside the log in
/// `board.events.marks` — this copy's alone, so that `board.json` stays the
/// same bytes on every copy.
///
/// A change made here gets a clock after every event the log held, so
/// nothing before it comes after it: reading backwards, it bounds all that
/// is left. Events merged from elsewhere (a sync, `pm merge`) arrive late
/// and in any order: each such append is recorded as a **batch** — its
/// bytes and the last event before it in merge order. Inside a batch
/// nothing is bounded; at its start, what came before it is.
///
/// Nothing here is needed for a correct history, only for a fast one: the
/// marks say nothing about the log before `from` (where they began), a
/// missing or damaged file says nothing at all, and then the log is read to
/// its start.
public struct HistoryMarks: Equatable, Sendable {
    /// Events appended together from elsewhere: bytes `start..<end` of the
    /// log, and the last event before them in merge order (nil: not known).
    public struct Batch: Equatable, Sendable {
        public var start: Int
        public var end: Int
        public var bound: EventOrder?

        public init(start: Int, end: Int, bound: EventOrder?) {
            self.start = start
            self.end = end
            self.bound = bound
        }
    }

    /// Where the marks begin: nothing is known of the log before it.
    public var from: Int
    /// In log order, not overlapping.
    public var batches: [Batch] = []
    /// Whether the log holds the board's record (``Event/boardRecord(_:)``).
    public var recorded = false

    public init(from: Int, batches: [Batch] = []) {
        self.from = from
        self.batches = batches
    }

    /// How many batches are kept: older ones are joined two by two, so a
    /// history far back reads a little more, never less than it must.
    static let limit = 64

    /// Records events appended from elsewhere at `start..<end`.
    public mutating func record(_ batch: Batch) {
        // A batch that was recorded and never written (a crash before the
        // append) shares bytes with what came after: one range covers both.
        while let last = batches.last, last.end > batch.start {
            batches.removeLast()
            if last.start < batch.start {
                batches.append(Batch(start: last.start, end: max(last.end, batch.end), bound: last.bound))
                return
            }
        }
        batches.append(batch)
        var index = 0
        while batches.count > Self.limit {
            // The oldest pair first: recent batches stay exact.
            let joined = Batch(start: batches[index].start, end: batches[index + 1].end, bound: batches[index].bound)
            batches.replaceSubrange(index...index + 1, with: [joined])
            index = (index + 1) % max(1, batches.count / 2)
        }
    }

    /// The file beside a log (`board.events.jsonl` → `board.events.marks`).
    public static func path(ofLog log: String) -> String {
        (log.hasSuffix(".jsonl") ? String(log.dropLast(6)) : log) + ".marks"
    }

    /// The marks for a log of `length` committed bytes; nil when there is
    /// no file, it is not in this form, or it speaks of bytes the log does
    /// not have (a log put back from a backup).
    public static func load(_ path: String, logLength: Int, fileSystem: FileSystem) -> HistoryMarks? {
        guard let status = try? fileSystem.linkStatus(path), status.kind == .regular, status.size < 1 << 20,
            let bytes = try? fileSystem.readFileNoFollow(path), let marks = parse(bytes),
            marks.from <= logLength, marks.batches.allSatisfy({ $0.end <= logLength })
        else { return nil }
        return marks
    }

    /// `{"from": N, "batches": [[start, end, [ms, n], "replica", "id"] or [start, end], …]}`.
    static func parse(_ bytes: [UInt8]) -> HistoryMarks? {
        guard UTF8Validation.firstInvalidOffset(in: bytes) == nil else { return nil }
        let value = bytes.withUnsafeBufferPointer { buffer -> JSONValue? in
            var reader = JSONReader(buffer)
            guard let value = try? reader.readValue() else { return nil }
            reader.skipWhitespace()
            return reader.atEnd ? value : nil
        }
        guard case .object(let object)? = value, case .number(let from)? = object["from"],
            let start = Int(from), start >= 0, case .array(let items)? = object["batches"], items.count <= limit
        else { return nil }
        var marks = HistoryMarks(from: start)
        if case .bool(let flag)? = object["recorded"] { marks.recorded = flag }
        for item in items {
            guard case .array(let parts) = item, parts.count == 2 || parts.count == 5, case .number(let s) = parts[0],
                case .number(let e) = parts[1], let low = Int(s), let high = Int(e), low >= (marks.batches.last?.end ?? 0),
                low <= high
            else { return nil }
            var bound: EventOrder?
            if parts.count == 5 {
                guard case .array(let clock) = parts[2], clock.count == 2, case .number(let ms) = clock[0],
                    case .number(let n) = clock[1], let millis = Int64(ms), let counter = Int64(n), millis >= 0, counter >= 0,
                    case .string(let replica) = parts[3], case .string(let id) = parts[4]
                else { return nil }
                bound = EventOrder(clock: HybridClock(milliseconds: millis, counter: counter), replica: replica, id: id)
            }
            marks.batches.append(Batch(start: low, end: high, bound: bound))
        }
        return marks
    }

    /// The file's bytes.
    var bytes: [UInt8] {
        var writer = JSONWriter()
        writer.raw("{\"from\": \(from), \"recorded\": \(recorded), \"batches\": [")
        for (index, batch) in batches.enumerated() {
            writer.raw(index == 0 ? "\n  [" : ",\n  [")
            writer.raw("\(batch.start), \(batch.end)")
            if let bound = batch.bound {
                writer.raw(", [\(bound.clock.milliseconds), \(bound.clock.counter)], ")
                writer.string(bound.replica)
                writer.raw(", ")
                writer.string(bound.id)
            }
            writer.raw("]")
        }
        writer.raw(batches.isEmpty ? "]}\n" : "\n]}\n")
        return Array(writer.finishedChunks().joined())
    }
}
