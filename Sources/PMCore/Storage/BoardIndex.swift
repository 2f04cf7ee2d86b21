/// `board.json.index`: where each task of the board file lies, so that a
/// change reads only the tasks it touches instead of decoding them all,
/// and what a list shows of each (``TaskSummary``), so that `pm list`
/// reads no task from the file at all.
///
/// It is a cache pm makes for itself, never trusted beyond what it can
/// check: it names the board file's size and modification time and a hash
/// of its header (the board's id and where it stands in its log, different
/// at every checkpoint), and it is used only when all three still match
/// the open file; a task read through it must decode as the id it names,
/// and one a checkpoint copies through it is checked as it is copied
/// (``CopiedTasks``).
/// It is written only from a board file pm read whole and accepted, or
/// wrote itself (beside every checkpoint); when it is missing, stale or
/// damaged, pm reads the board whole and writes it again. Its own bytes end with a checksum: a torn write is never used.
/// (An index of pm before summaries, `pm board index 2`, is not used: the
/// next change writes this one.)
struct BoardIndex: Equatable {
    static let magic = Array("pm board index 3\n".utf8)
    /// The board file's size and modification time when indexed.
    var size: Int64
    var modified: Int64
    /// The header's length (where the tasks array begins) and its hash.
    var headerLength: Int
    var headerHash: UInt64
    /// 40 bytes per task, in the file's order: its id's two words, where
    /// it starts and how long it is (little-endian). Kept as read, never
    /// copied into arrays: at 100k tasks those were 3 MB of fresh memory on
    /// every change.
    private(set) var entries: ArraySlice<UInt8>
    /// Where each task's summary lies in `summaries`: `count + 1` words of
    /// four bytes, the ends of one summary after another (an empty one: none).
    private(set) var summaryEnds: ArraySlice<UInt8>
    /// The summaries, one after the other.
    private(set) var summaries: ArraySlice<UInt8>
    /// The names the summaries hold (assignees and labels), each once: a
    /// summary names them by their place here, and a list of cards that
    /// carry labels makes no string of a name per card.
    private(set) var names: [String]

    /// How many tasks it lists.
    var count: Int { entries.count / Self.entrySize }

    /// Bytes per task: its id's two words, where it starts, how long it is, and a hash of its bytes.
    static let entrySize = 40

    private func word(_ entry: Int, _ k: Int) -> UInt64 {
        entries.withUnsafeBytes {
            UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: entry * Self.entrySize + k * 8, as: UInt64.self))
        }
    }

    /// The hash of the task's bytes at `position` (``hash(_:)``): a task
    /// read or copied must be these bytes, so that what its summary says is
    /// what the file holds even after an edit in place that kept the
    /// file's size and time.
    func bytesHash(at position: Int) -> UInt64 { word(position, 4) }

    /// The id of the task at `position`.
    func id(at position: Int) -> TaskID { TaskID(high: word(position, 0), low: word(position, 1)) }

    /// Where the task at `position` lies in the board file.
    func span(at position: Int) -> Range<Int> {
        let start = Int(word(position, 2))
        return start..<(start + Int(word(position, 3)))
    }

    /// Every id, in order (for tests that damage it: settable).
    var ids: [TaskID] {
        get { (0..<count).map(id(at:)) }
        set { entries = Self.entries(ids: newValue, spans: spans, hashes: (0..<count).map(bytesHash(at:))) }
    }

    /// The bytes of the summary of the task at `position` (empty: none).
    func summaryBytes(at position: Int) -> ArraySlice<UInt8> {
        let end = { (k: Int) in
            self.summaryEnds.withUnsafeBytes {
                Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self)))
            }
        }
        let start = summaries.startIndex
        return summaries[(start + end(position))..<(start + end(position + 1))]
    }

    /// Sets the bytes of the summary at `position` (for tests that damage or forge it).
    mutating func setSummaryBytes(_ bytes: [UInt8], at position: Int) {
        var ends: [UInt8] = []
        var out: [UInt8] = []
        Self.appendWord(0, to: &ends)
        for each in 0..<count {
            out += each == position ? bytes[...] : summaryBytes(at: each)
            Self.appendWord(UInt32(out.count), to: &ends)
        }
        (summaryEnds, summaries) = (ends[...], out[...])
    }

    /// The summary of the task at `position`, when the index holds one that reads back.
    func summary(at position: Int) -> TaskSummary? {
        let bytes = summaryBytes(at: position)
        return bytes.isEmpty ? nil : bytes.withUnsafeBufferPointer { TaskSummary(decoding: $0, names: names) }
    }

    /// The summaries of `tasks`, in order, and the names they hold: each
    /// one's own, or for a task still unread what its file's index says.
    private static func summaries(of tasks: [BoardTask]) -> (
        ends: ArraySlice<UInt8>, summaries: ArraySlice<UInt8>, names: [String]
    ) {
        var ends: [UInt8] = []
        var out: [UInt8] = []
        var names = TaskSummary.NameTable()
        ends.reserveCapacity(tasks.count * 4 + 4)
        out.reserveCapacity(tasks.count * 64)
        appendWord(0, to: &ends)
        for task in tasks {
            let summary: TaskSummary?
            if let (file, position) = task.unreadPlace, let index = file.index {
                summary = index.summary(at: position)
            } else {
                summary = TaskSummary(of: task)
            }
            summary?.encode(into: &out, names: &names)
            appendWord(UInt32(out.count), to: &ends)
        }
        return (ends[...], out[...], names.names)
    }

    static func appendWord(_ word: UInt32, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
    }

    /// Every span, in order.
    var spans: [Range<Int>] { (0..<count).map(span(at:)) }

    private static func entries(ids: [TaskID], spans: [Range<Int>], hashes: [UInt64]) -> ArraySlice<UInt8> {
        var out: [UInt8] = []
        out.reserveCapacity(ids.count * entrySize)
        for ((id, span), hash) in zip(zip(ids, spans), hashes) {
            let (high, low) = id.words
            for word in [high, low, UInt64(span.lowerBound), UInt64(span.count), hash] { append(word, to: &out) }
        }
        return out[...]
    }

    /// The index beside a board file.
    static func path(for board: String) -> String { board + ".index" }

    /// The index of a board file read whole: its status, its bytes, and its
    /// tasks where they were read. Nil when the board is not one an index
    /// can describe (pm 0.1's format, fields of a newer pm, tasks without heads).
    init?(board: Board, status: FileStatus) {
        let source = board.source
        guard board.schemaVersion == Board.currentSchemaVersion, board.unknownFields.isEmpty,
            source.spans.count == board.tasks.count, source.tasksStart > 0, source.tasksStart <= source.bytes.count,
            Int64(source.bytes.count) == status.size, board.tasks.allSatisfy(\.tracked)
        else { return nil }
        size = status.size
        modified = status.modifiedNanoseconds
        headerLength = source.tasksStart
        headerHash = Self.hash(source.bytes[..<source.tasksStart])
        let hashes = source.bytes.withUnsafeBytes { raw in
            source.spans.map { Self.hash(UnsafeRawBufferPointer(rebasing: raw[$0])) }
        }
        entries = Self.entries(ids: board.tasks.map(\.id), spans: source.spans, hashes: hashes)
        (summaryEnds, summaries, names) = Self.summaries(of: board.tasks)
    }

    /// The index of a board file just written from `board`: where the
    /// encoder put each task (`layout`), the file's first bytes up to its
    /// tasks (`header`) and its status once on disk. Nil as for a file read.
    init?(written board: Board, layout: JSONWriter.Layout, header: ArraySlice<UInt8>, status: FileStatus) {
        guard board.schemaVersion == Board.currentSchemaVersion, board.unknownFields.isEmpty,
            layout.spans.count == board.tasks.count, layout.tasksStart > 0, header.count == layout.tasksStart,
            Int64(layout.spans.last?.upperBound ?? layout.tasksStart) <= status.size,
            // (A task copied unread from an indexed file was tracked there: only such are indexed.)
            board.tasks.allSatisfy({ $0.unreadPlace != nil || $0.tracked })
        else { return nil }
        size = status.size
        modified = status.modifiedNanoseconds
        headerLength = layout.tasksStart
        headerHash = Self.hash(header)
        guard layout.hashes.count == layout.spans.count else { return nil }
        entries = Self.entries(ids: board.tasks.map(\.id), spans: layout.spans, hashes: layout.hashes)
        (summaryEnds, summaries, names) = Self.summaries(of: board.tasks)
    }

    /// Whether it describes the open board file with this status and header.
    func describes(_ status: FileStatus, header: [UInt8]) -> Bool {
        status.kind == .regular && status.size == size && status.modifiedNanoseconds == modified
            && header.count == headerLength && Self.hash(header[...]) == headerHash
    }

    // MARK: Bytes

    /// Magic, seven words (size, time, header length and hash, count, the
    /// summaries' length, the names' length), 40 bytes per task (id,
    /// start, length, hash of its bytes), the ends of the summaries, the summaries, the names
    /// (``TaskSummary/NameTable``), then a checksum of all before.
    func encoded() -> [UInt8] {
        let table = TaskSummary.NameTable.encoded(names)
        var out = Self.magic
        out.reserveCapacity(out.count + 8 * 8 + entries.count + summaryEnds.count + summaries.count + table.count)
        for word in [
            UInt64(bitPattern: size), UInt64(bitPattern: modified), UInt64(headerLength), headerHash, UInt64(count),
            UInt64(summaries.count), UInt64(table.count),
        ] {
            Self.append(word, to: &out)
        }
        out += entries
        out += summaryEnds
        out += summaries
        out += table
        Self.append(Self.hash(out[...]), to: &out)
        return out
    }

    /// An index read back; nil unless whole, checked and self-consistent
    /// (spans in order, after the header, inside the file).
    init?(decoding bytes: [UInt8]) {
        let fixed = Self.magic.count + 7 * 8
        guard bytes.count >= fixed + 8, bytes.starts(with: Self.magic) else { return nil }
        let body = bytes[..<(bytes.count - 8)]
        guard Self.word(bytes, at: bytes.count - 8) == Self.hash(body) else { return nil }
        var at = Self.magic.count
        func next() -> UInt64 {
            defer { at += 8 }
            return Self.word(bytes, at: at)
        }
        size = Int64(bitPattern: next())
        modified = Int64(bitPattern: next())
        let header = next()
        headerHash = next()
        let count = next()
        let summaryLength = next()
        let namesLength = next()
        guard size >= 0, header > 0, header <= UInt64(size), count <= UInt64((bytes.count - fixed - 8) / 44),
            summaryLength <= UInt64(bytes.count), namesLength <= UInt64(bytes.count),
            UInt64(bytes.count) == UInt64(fixed + 8) + count * 44 + 4 + summaryLength + namesLength
        else { return nil }
        headerLength = Int(header)
        entries = bytes[at..<(at + Int(count) * Self.entrySize)]
        at += Int(count) * Self.entrySize
        summaryEnds = bytes[at..<(at + Int(count) * 4 + 4)]
        at += Int(count) * 4 + 4
        summaries = bytes[at..<(at + Int(summaryLength))]
        at += Int(summaryLength)
        guard let names = TaskSummary.NameTable.decoded(bytes[at..<(at + Int(namesLength))]) else { return nil }
        self.names = names
        // The ends in order, from nothing to the last byte.
        let ordered = summaryEnds.withUnsafeBytes { raw -> Bool in
            var last: UInt32 = 0
            for k in 0...Int(count) {
                let end = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: k * 4, as: UInt32.self))
                guard end >= last, k > 0 || end == 0 else { return false }
                last = end
            }
            return UInt64(last) == summaryLength
        }
        guard ordered else { return nil }
        let limit = UInt64(size)
        let whole = entries.withUnsafeBytes { raw -> Bool in
            var end = UInt64(headerLength)
            for entry in 0..<Int(count) {
                let base = entry * Self.entrySize
                let word = { (k: Int) in UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + 8 * k, as: UInt64.self)) }
                let (start, length) = (word(2), word(3))
                guard start >= end, length > 0, length <= limit, start <= limit - length else { return false }
                end = start + length
            }
            return true
        }
        guard whole else { return nil }
    }

    private static func append(_ word: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }

    /// A checksum against torn writes and stale files, not against someone
    /// who means harm: the index only says where to look, and what is found
    /// there is decoded and checked. FNV-1a's step over eight bytes at a
    /// time in four lanes (independent multiplies: a 100k index is 3 MB,
    /// hashed on every change), the lanes then folded together with the
    /// bytes left.
    static func hash(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.withUnsafeBytes { hash($0) } }

    /// ``hash(_:)`` of bytes where they lie.
    static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01B3
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9ce4_cbf2_2325_8422, 1)
        func step(_ hash: inout UInt64, _ word: UInt64) {
            hash = (hash ^ word) &* prime
            hash ^= hash >> 29
        }
        let load = { (offset: Int) in UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        var offset = 0
        while offset + 32 <= raw.count {
            step(&lanes.0, load(offset))
            step(&lanes.1, load(offset + 8))
            step(&lanes.2, load(offset + 16))
            step(&lanes.3, load(offset + 24))
            offset += 32
        }
        var hash = lanes.0
        for lane in [lanes.1, lanes.2, lanes.3] { step(&hash, lane) }
        while offset + 8 <= raw.count {
            step(&hash, load(offset))
            offset += 8
        }
        while offset < raw.count {
            hash = (hash ^ UInt64(raw[offset])) &* prime
            offset += 1
        }
        return hash
    }
}
