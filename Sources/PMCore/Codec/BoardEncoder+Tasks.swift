/// The board file's tasks array: each task encoded afresh, or, when it is
/// unchanged since read, its bytes taken from the file it was read from in
/// runs of tasks lying one after the other (``BoardEncoder``).
extension BoardEncoder {
    /// Unchanged tasks lying one after the other in the file, written as one
    /// piece: copied from their file (`copied`), else shared with the bytes
    /// read; `offset` is where the piece starts in what is written.
    fileprivate typealias TaskRun = (copied: CopiedTasks?, first: Int, last: Int, offset: Int)

    /// - Parameter copyUnread: tasks read through the index and unchanged
    ///   since are written as pieces to copy from their file
    ///   (``CopiedTasks``), not decoded and encoded again.
    static func writeTasks(
        _ tasks: [BoardTask], source: TaskSource = TaskSource(), into writer: inout JSONWriter,
        unreadable: UnreadableFlag? = nil, copyUnread: Bool = false
    ) {
        let positions = source.spans.isEmpty ? nil : TaskSource.Positions(source)
        let copying = positions.map { canCopy(tasks, from: $0) } ?? false
        // A task with a character the encoder may escape is encoded again:
        // a hand edit never passes raw.
        let escapable = copying ? source.positionsWithEscapableBytes() : []
        writer.layout.tasksStart = writer.offset
        writer.layout.spans.reserveCapacity(tasks.count)
        guard !tasks.isEmpty else {
            writer.raw("[]")
            return
        }
        writer.raw("[\n")
        // Unchanged tasks lying one after the other in the file, with the
        // separator this encoder writes between them, are written as one
        // piece: shared with the bytes read, or copied from the file read
        // through the index. A checkpoint of a large board then writes most
        // of its file straight from what it read.
        var run: TaskRun?
        for index in tasks.indices {
            if copyUnread, let (file, position) = tasks[index].unreadPlace {
                addCopied(tasks[index].id, file: file, position: position, index: index, to: &run, source, &writer)
                continue
            }
            if copying, let position = positions?.of(tasks[index]), !escapable.contains(position) {
                addShared(position: position, index: index, to: &run, source, &writer)
                continue
            }
            separate(index, ending: &run, source, &writer)
            writeFresh(tasks[index], into: &writer, unreadable: unreadable)
        }
        flush(&run, source, &writer)
        writer.raw("\n")
        writer.indent(1)
        writer.raw("]")
    }

    /// A task read through the index and unchanged since: added to the run
    /// when it follows the run's last task in the same file, else a run of its own.
    @inline(__always)
    private static func addCopied(
        _ id: TaskID, file: LazyBoardFile, position: Int, index: Int, to run: inout TaskRun?, _ source: TaskSource,
        _ writer: inout JSONWriter
    ) {
        let continues =
            run.map { current in
                current.copied?.file === file && current.last + 1 == position
                    && file.span(current.last).upperBound + CopiedTasks.separator.count == file.span(position).lowerBound
            } ?? false
        if continues {
            // In place: the run's ids are never copied.
            run?.copied?.ids.append(id)
            run?.last = position
        } else {
            begin(CopiedTasks(file: file, first: position, ids: [id]), at: position, index: index, run: &run, source, &writer)
        }
    }

    /// A task unchanged since read from `source`: added to the run when it
    /// follows the run's last task there, else a run of its own.
    @inline(__always)
    private static func addShared(
        position: Int, index: Int, to run: inout TaskRun?, _ source: TaskSource, _ writer: inout JSONWriter
    ) {
        if let current = run, current.copied == nil, current.last + 1 == position, source.separates(current.last, position) {
            run?.last = position
        } else {
            begin(nil, at: position, index: index, run: &run, source, &writer)
        }
    }

    /// A task encoded afresh, its span noted; with `unreadable`, checked to read back as itself.
    @inline(__always)
    private static func writeFresh(_ task: BoardTask, into writer: inout JSONWriter, unreadable: UnreadableFlag?) {
        let taskStart = writer.offset
        let start = writer.bytes.count
        writeTask(task, overdue: nil, into: &writer, level: 2, heads: true)
        writer.layout.spans.append(taskStart..<writer.offset)
        writer.layout.hashes.append(BoardIndex.hash(writer.bytes[start...]))
        if let unreadable, !unreadable.found, !readsBack(task, writer.bytes[start...]) {
            unreadable.found = true
        }
    }

    /// Writes the run, if any, as one piece, with each of its tasks' spans.
    /// (Left to the optimizer, as the nested function it was: called from
    /// three places, it stays out of line.)
    private static func flush(_ run: inout TaskRun?, _ source: TaskSource, _ writer: inout JSONWriter) {
        guard let (copied, first, last, offset) = run else { return }
        let span = { (position: Int) in copied?.file.span(position) ?? source.spans[position] }
        let start = span(first).lowerBound
        if let copied {
            writer.appendCopied(copied)
        } else {
            writer.appendShared(source.bytes[start..<span(last).upperBound])
        }
        for position in first...last {
            let each = span(position)
            writer.layout.spans.append((offset + each.lowerBound - start)..<(offset + each.upperBound - start))
            // A copied task's bytes are checked against this as they are copied (``CopiedTasks``).
            writer.layout.hashes.append(copied?.file.index?.bytesHash(at: position) ?? BoardIndex.hash(source.bytes[each]))
        }
        run = nil
    }

    /// Ends any run and writes what comes before the task at `index`.
    @inline(__always)
    private static func separate(_ index: Int, ending run: inout TaskRun?, _ source: TaskSource, _ writer: inout JSONWriter) {
        flush(&run, source, &writer)
        if index > 0 { writer.raw(",\n") }
        writer.indent(2)
    }

    /// Starts a run at the task at `index`, at `position` in its file.
    @inline(__always)
    private static func begin(
        _ copied: CopiedTasks?, at position: Int, index: Int, run: inout TaskRun?, _ source: TaskSource,
        _ writer: inout JSONWriter
    ) {
        separate(index, ending: &run, source, &writer)
        run = (copied, position, position, writer.offset)
    }

    /// Whether `bytes`, one task as written, read back as `task`.
    static func readsBack(_ task: BoardTask, _ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            guard let again = try? BoardDecoder.readTask(&reader) else { return false }
            reader.skipWhitespace()
            return reader.atEnd && again == task
        }
    }

    /// Whether unchanged tasks can be copied from the file they were read
    /// from: it is in this encoder's form (pm wrote it), checked on the
    /// first task that can be copied, encoded afresh and compared byte for
    /// byte. A file edited by hand or written by another tool is encoded
    /// whole, as before.
    static func canCopy(_ tasks: [BoardTask], from positions: TaskSource.Positions) -> Bool {
        for task in tasks {
            guard let position = positions.of(task) else { continue }
            var probe = JSONWriter()
            writeTask(task, overdue: nil, into: &probe, level: 2, heads: true)
            return probe.bytes.elementsEqual(positions.source.bytes[positions.source.spans[position]])
        }
        return false
    }
}
