import PMICU

/// A task's fields, shared by the copies of a task until one of them
/// changes. A board shown leaves the heads and live changes as text until
/// read (``LazyHeads``).
///
/// A box is decoded at most once, by the thread that holds the board: a
/// board read lazily stays with the command that read it.
final class TaskBox: @unchecked Sendable {
    private var stored: BoardTask.Fields
    private var unreadHeads: LazyHeads?
    /// Where the body's JSON string is, while it is unread (`stored.body` is then empty).
    private var unreadBody: LazyText?
    /// The same for the time of the last change, which a list never shows.
    private var unreadUpdatedAt: LazyText?
    /// Where the checklist and comments are, while unread (a list shows
    /// only the checklist's progress, counted where it lies).
    private var unreadParts: LazyParts?
    /// A task known from its summary in the index: everything else, read
    /// from the board file when first needed.
    private var unreadRest: UnreadRest?

    struct UnreadRest {
        let file: BoardFileReader
        let id: TaskID
        let position: Int
        /// What the summary said, to check the task read against.
        let summary: TaskSummary
        /// Its checklist's progress, read without copying the summary.
        let progress: (done: Int, total: Int)

        init(file: BoardFileReader, id: TaskID, position: Int, summary: TaskSummary) {
            (self.file, self.id, self.position, self.summary) = (file, id, position, summary)
            progress = (summary.done, summary.total)
        }
    }

    init(_ fields: BoardTask.Fields) {
        stored = fields
    }

    /// A task as its summary says, the rest read from `rest` when first needed.
    init(rest: UnreadRest) {
        stored = rest.summary.fields
        unreadRest = rest
    }

    /// The fields but the body and the time of the last change, which may
    /// still be unread (empty here), and the heads and live changes, which
    /// may be too: for every field but those.
    var shown: BoardTask.Fields {
        _read { yield stored }
    }

    /// The body, decoded the first time it is read.
    var body: String {
        if unreadRest != nil { readRest() }
        if unreadBody != nil { decodeBody() }
        return stored.body
    }

    /// The time of the last change, decoded the first time it is read.
    var updatedAt: String {
        if unreadRest != nil { readRest() }
        if unreadUpdatedAt != nil { decodeUpdatedAt() }
        return stored.updatedAt
    }

    /// The fields, the body, heads and live changes decoded.
    var allFields: BoardTask.Fields {
        _read {
            decodeAll()
            yield stored
        }
        _modify {
            decodeAll()
            yield &stored
        }
    }

    /// The checklist as kept, decoded the first time it is read.
    var checklist: [ChecklistItem] {
        if unreadRest != nil { readRest() }
        if unreadParts != nil { decodeParts() }
        return stored.checklist
    }

    /// The comments as kept, decoded the first time they are read.
    var comments: [Comment] {
        if unreadRest != nil { readRest() }
        if unreadParts != nil { decodeParts() }
        return stored.comments
    }

    /// The checklist's items ticked and shown: counted in the bytes read
    /// while the checklist is unread and in pm's own layout.
    var progress: (done: Int, total: Int) {
        if let progress = unreadRest?.progress { return progress }
        if let unreadParts, let counted = unreadParts.progress() { return counted }
        var (done, total) = (0, 0)
        for item in checklist where item.isShown {
            total += 1
            if item.done { done += 1 }
        }
        return (done, total)
    }

    /// Leaves the checklist and comments as read until first read.
    func decodePartsLater(_ parts: LazyParts) {
        unreadParts = parts
    }

    private func decodeParts() {
        guard let unreadParts else { return }
        self.unreadParts = nil
        if let (checklist, comments) = unreadParts.decode() {
            (stored.checklist, stored.comments) = (checklist, comments)
        } else {
            // Checked as JSON when read: a value pm would not keep leaves a
            // task only the log can fold again.
            (stored.checklist, stored.comments, stored.tracked) = ([], [], false)
        }
    }

    /// Reads what the summary left out from the board file: the task
    /// there must say what its summary said, or it is damage (the board is
    /// then refused, and this task reads as one that cannot be read).
    func readRest() {
        guard let rest = unreadRest else { return }
        unreadRest = nil
        guard let task = rest.file.task(rest.id, at: rest.position), TaskSummary(of: task) == rest.summary
        else {
            rest.file.noteDamage()
            stored = Self.unreadable.stored
            return
        }
        let read = task.box
        (stored, unreadHeads, unreadBody, unreadUpdatedAt, unreadParts) = (
            read.stored, read.unreadHeads, read.unreadBody, read.unreadUpdatedAt, read.unreadParts
        )
    }

    private func decodeAll() {
        if unreadRest != nil { readRest() }
        if unreadParts != nil { decodeParts() }
        if unreadBody != nil { decodeBody() }
        if unreadUpdatedAt != nil { decodeUpdatedAt() }
        if unreadHeads != nil { decodeHeads() }
    }

    /// Leaves the time of the last change as read until first read.
    func decodeUpdatedAtLater(_ text: LazyText) {
        unreadUpdatedAt = text
    }

    private func decodeUpdatedAt() { decode(\.unreadUpdatedAt, into: \.updatedAt) }

    /// Leaves the body as read (a checked JSON string) until first read: a
    /// list or a board on the screen never shows it.
    func decodeBodyLater(_ body: LazyText) {
        unreadBody = body
    }

    private func decodeBody() { decode(\.unreadBody, into: \.body) }

    /// Decodes a text left unread into its field, once.
    private func decode(
        _ unread: ReferenceWritableKeyPath<TaskBox, LazyText?>, into field: WritableKeyPath<BoardTask.Fields, String>
    ) {
        guard let text = self[keyPath: unread] else { return }
        self[keyPath: unread] = nil
        stored[keyPath: field] = text.decode()
    }

    /// Leaves the heads and live changes as text until first read.
    func decodeHeadsLater(_ heads: LazyHeads) {
        unreadHeads = heads
    }

    private func decodeHeads() {
        guard let unreadHeads else { return }
        // The heads of a board from before heads were kept are its shown values, the body among them.
        if unreadParts != nil { decodeParts() }
        if unreadBody != nil { decodeBody() }
        if unreadUpdatedAt != nil { decodeUpdatedAt() }
        self.unreadHeads = nil
        let known = BoardTask(id: TaskID(high: 0, low: 0), fields: stored)
        if let (heads, live) = unreadHeads.decode(shown: { LegacyMigration.contentValue($0, of: known) }) {
            (stored.heads, stored.live) = (heads, live)
        } else {
            // Checked as JSON when read: only a value of the wrong shape is
            // left, and the task is then one only the log can fold again.
            (stored.heads, stored.live, stored.tracked) = ([:], [], false)
        }
    }

    /// What a task that cannot be read holds (the board is then refused:
    /// ``LazyBoardFile/damage``).
    static var unreadable: TaskBox {
        TaskBox(
            BoardTask.Fields(
                title: "", body: "", state: .todo, due: nil, createdAt: "", updatedAt: "", unknownFields: [:], tracked: false))
    }
}

/// Where a JSON string is, in the board file's bytes as read (checked when
/// read: it decodes).
struct LazyText {
    let bytes: [UInt8]
    let at: Int

    func decode() -> String {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            reader.index = at
            return (try? reader.readString()) ?? ""
        }
    }
}

/// Where a task's checklist and comments are, in the board file's bytes as
/// read (checked JSON; decoded, and checked as pm keeps them, when first used).
struct LazyParts {
    let bytes: [UInt8]
    let checklistAt: Int?
    let commentsAt: Int?

    func decode() -> (checklist: [ChecklistItem], comments: [Comment])? {
        bytes.withUnsafeBufferPointer { buffer in
            var card = CardRead()
            var reader = JSONReader(buffer)
            for (number, at) in [(14, checklistAt), (15, commentsAt)] {
                guard let at else { continue }
                reader.index = at
                guard (try? card.read(number, &reader, field: number == 14 ? "checklist" : "comments")) != nil else {
                    return nil
                }
            }
            return (card.checklist, card.comments)
        }
    }

    /// The progress of a checklist in pm's own layout, an item a line
    /// (``BoardEncoder``): nil for anything else, which is then decoded.
    func progress() -> (done: Int, total: Int)? {
        guard let checklistAt else { return (0, 0) }
        return bytes.withUnsafeBufferPointer { ChecklistScan.progress($0, at: checklistAt) }
    }
}

/// Where a task's heads and live changes are, in the board file's bytes as
/// read (checked JSON; decoded when first used).
struct LazyHeads {
    let bytes: [UInt8]
    let headsAt: Int
    let liveAt: Int

    func decode(shown: (String) -> JSONValue?) -> (heads: [String: [Head]], live: [TaskID])? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            reader.index = headsAt
            guard let heads = try? BoardDecoder.readHeads(&reader, field: "heads", shown: shown) else { return nil }
            reader.index = liveAt
            guard let live = try? BoardDecoder.readIDs(&reader, field: "live") else { return nil }
            return (heads, live)
        }
    }
}

/// The board file a board was read from by way of its index, held open:
/// a task's bytes are read from it when the task is first used, and until
/// then a list is shown from the task's summary in the index. A task that
/// does not read back as the index says (the file changed in place, which
/// pm never does) is recorded, and the board store refuses the board.
final class LazyBoardFile: @unchecked Sendable {
    /// The open file, shared with the tasks known from their summaries
    /// (which read the rest from it, and must not keep this alive: this
    /// holds them).
    let reader: BoardFileReader
    var path: String { reader.path }
    /// Where each task lies, in the index's order.
    var index: BoardIndex? {
        get { reader.index }
        set { reader.index = newValue }
    }

    /// Where the task at `position` lies.
    func span(_ position: Int) -> Range<Int> { reader.span(position) }
    /// The tasks decoded so far, by place (an array: a list asks for
    /// every task's fields several times, and hashing each place was a
    /// fifth of its time).
    private var decoded: [TaskBox?] = []
    /// The first task that could not be read, as the error to report.
    var damage: PMError? { reader.damage }

    init(path: String, descriptor: Int32, fileSystem: FileSystem) {
        reader = BoardFileReader(path: path, descriptor: descriptor, fileSystem: fileSystem)
    }

    func isDecoded(_ position: Int) -> Bool { decoded.indices.contains(position) && decoded[position] != nil }

    /// The fields of the task at `position` (which must be `id`): from its
    /// summary, the rest read when first needed; or decoded from the file
    /// the first time they are asked for.
    func box(at position: Int, id: TaskID) -> TaskBox {
        if decoded.indices.contains(position), let box = decoded[position] { return box }
        let box: TaskBox
        if let summary = index?.summary(at: position) {
            box = TaskBox(rest: TaskBox.UnreadRest(file: reader, id: id, position: position, summary: summary))
        } else {
            box = reader.task(id, at: position)?.box ?? TaskBox.unreadable
        }
        if decoded.count <= position {
            decoded += Array(repeating: nil, count: max(index?.count ?? 0, position + 1) - decoded.count)
        }
        decoded[position] = box
        return box
    }

    /// `count` bytes at `offset`; fewer only at the file's end.
    func bytes(at offset: Int, count: Int) throws -> [UInt8] { try reader.bytes(at: offset, count: count) }

    /// The task `id` decoded from where the task at `position` lies; nil
    /// (and the damage recorded) when the bytes there are not that task.
    func task(_ id: TaskID, at position: Int) -> BoardTask? { reader.task(id, at: position) }
}

/// A board file held open to read tasks from (``LazyBoardFile``), closed
/// when nothing can read from it any longer.
final class BoardFileReader: @unchecked Sendable {
    let path: String
    private let descriptor: Int32
    private let fileSystem: FileSystem
    var index: BoardIndex?
    /// The first task that could not be read, as the error to report.
    private(set) var damage: PMError?

    init(path: String, descriptor: Int32, fileSystem: FileSystem) {
        self.path = path
        self.descriptor = descriptor
        self.fileSystem = fileSystem
    }

    deinit { try? fileSystem.close(descriptor) }

    func span(_ position: Int) -> Range<Int> { index?.span(at: position) ?? 0..<0 }

    /// Records that the task at `span` was not what the index said.
    func noteDamage() {
        if damage == nil { damage = .boardCorrupt(path: path, line: nil, column: nil, reason: .field("tasks")) }
    }

    /// `count` bytes at `offset`; fewer only at the file's end.
    func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        do {
            return try fileSystem.read(descriptor, at: offset, count: count)
        } catch let error as SystemCallError {
            throw PMError.readFailed(path: path, error)
        }
    }

    /// The task `id` decoded from where the task at `position` lies (its
    /// bytes those the index hashed); nil, and the damage recorded, when they are not that task.
    func task(_ id: TaskID, at position: Int) -> BoardTask? {
        let span = span(position)
        do {
            let bytes = try self.bytes(at: span.lowerBound, count: span.count)
            guard bytes.count == span.count, BoardIndex.hash(bytes[...]) == index?.bytesHash(at: position),
                UTF8Validation.firstInvalidOffset(in: bytes) == nil
            else {
                throw PMError.boardCorrupt(path: path, line: nil, column: nil, reason: .field("tasks"))
            }
            let task = try bytes.withUnsafeBufferPointer { buffer -> BoardTask in
                var reader = JSONReader(buffer)
                let task = try BoardDecoder.readTask(&reader)
                reader.skipWhitespace()
                guard reader.atEnd, task.id == id, task.tracked else { throw reader.failure() }
                return task
            }
            return task
        } catch let error as PMError {
            if damage == nil { damage = error }
        } catch let failure as JSONReader.Failure {
            if damage == nil { damage = .boardCorrupt(path: path, line: nil, column: nil, reason: failure.reason) }
        } catch {
            if damage == nil { damage = .boardCorrupt(path: path, line: nil, column: nil, reason: .field("tasks")) }
        }
        return nil
    }
}
