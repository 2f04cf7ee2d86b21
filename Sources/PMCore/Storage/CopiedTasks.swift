import PMICU
import PMText

#if canImport(Glibc)
    import Glibc
#endif

/// Tasks lying one after the other in a board file read through its index,
/// unchanged since: a checkpoint copies their bytes into the new file, a
/// block at a time, instead of decoding and encoding them (at 100k tasks
/// that was most of a checkpoint's time and memory).
///
/// The bytes are checked as they are copied, never taken on the index's
/// word: each task must be one JSON object, whole, of valid UTF-8, naming
/// the id the index gave it, with no character the encoder would escape;
/// the bytes between two tasks must be what the encoder writes there; and
/// the first task of each run must be exactly what the encoder writes for
/// it; and each task's bytes must hash as the index says (so that the
/// summary the new index carries for it still says what it holds). A run that fails stops the write (``Refused``): the checkpoint is
/// then made from the board read whole.
struct CopiedTasks {
    let file: LazyBoardFile
    /// The first task's place in the file.
    let first: Int
    /// The tasks' ids, in the file's order from `first`.
    var ids: [TaskID]

    /// The bytes copied were not what the index said.
    struct Refused: Error {}

    /// How many bytes the run holds, from the first task's start to the last one's end.
    var count: Int { file.span(first + ids.count - 1).upperBound - file.span(first).lowerBound }

    /// What the encoder writes between two tasks.
    static let separator = Array(",\n    ".utf8)
    /// A task's id key, as the encoder writes it: at the task's own indent
    /// (a raw newline is never inside a string, and nested values are deeper).
    static let idKey = Array("\n      \"id\": \"".utf8)
    /// How much is read at once.
    static let block = 1 << 20

    /// Reads, checks and hands to `emit` the run's bytes, a block at a time.
    /// - Throws: ``Refused`` when a task is not what the index said;
    ///   ``PMError/readFailed(path:_:)`` when the file cannot be read.
    func copy(to emit: (ArraySlice<UInt8>) throws -> Void) throws {
        let span = file.span
        var next = 0
        while next < ids.count {
            // A block begins with the separator before its first task (but the run's first).
            let start = next == 0 ? span(first).lowerBound : span(first + next - 1).upperBound
            var last = next
            while last + 1 < ids.count, span(first + last + 1).upperBound - start <= Self.block { last += 1 }
            let end = span(first + last).upperBound
            let bytes = try file.bytes(at: start, count: end - start)
            guard bytes.count == end - start, UTF8Validation.firstInvalidOffset(in: bytes) == nil else { throw Refused() }
            try bytes.withUnsafeBufferPointer { buffer in
                for place in next...last {
                    let each = span(first + place)
                    if place > 0 {
                        let gap = (span(first + place - 1).upperBound - start)..<(each.lowerBound - start)
                        guard buffer[gap].elementsEqual(Self.separator) else { throw Refused() }
                    }
                    let task = UnsafeBufferPointer(rebasing: buffer[(each.lowerBound - start)..<(each.upperBound - start)])
                    // The very bytes the index's summary of it was made from.
                    guard let expected = file.index?.bytesHash(at: first + place),
                        BoardIndex.hash(UnsafeRawBufferPointer(task)) == expected
                    else { throw Refused() }
                    try Self.check(task, id: ids[place], canonical: place == 0)
                }
            }
            try emit(bytes[...])
            next = last + 1
        }
    }

    /// Checks one task's bytes (see the type's description).
    static func check(_ task: UnsafeBufferPointer<UInt8>, id: TaskID, canonical: Bool) throws {
        var reader = JSONReader(task)
        guard task.first == UInt8(ascii: "{"), (try? reader.skipValueFast()) != nil else { throw Refused() }
        reader.skipWhitespace()
        guard reader.atEnd, let base = task.baseAddress else { throw Refused() }
        // The id the index names.
        let expected = id.rawValue.utf8
        var line = 0
        while line < task.count, let hit = memchr(base + line, 0x0A, task.count - line) {
            line = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if task[line...].starts(with: Self.idKey) { break }
            line += 1
        }
        let value = line + Self.idKey.count
        guard line < task.count, value + expected.count < task.count,
            task[value..<(value + expected.count)].elementsEqual(expected),
            task[value + expected.count] == UInt8(ascii: "\"")
        else { throw Refused() }
        // No character the encoder escapes (a hand edit never passes raw).
        if memchr(base, 0x7F, task.count) != nil { throw Refused() }
        for lead in TextSafety.unsafeLeadBytes {
            var offset = 0
            while offset < task.count, let hit = memchr(base + offset, Int32(lead), task.count - offset) {
                let at = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                var bytes = task[at...].makeIterator()
                var decoder = UTF8()
                if case .scalarValue(let scalar) = decoder.decode(&bytes), TextSafety.isUnsafe(scalar) { throw Refused() }
                offset = at + 1
            }
        }
        guard canonical else { return }
        // In this encoder's form: decoded and written again, the same bytes.
        var full = JSONReader(task)
        guard let decoded = try? BoardDecoder.readTask(&full), decoded.id == id, decoded.tracked else { throw Refused() }
        var again = JSONWriter()
        BoardEncoder.writeTask(decoded, overdue: nil, into: &again, level: 2, heads: true)
        guard again.bytes.elementsEqual(task) else { throw Refused() }
    }
}
