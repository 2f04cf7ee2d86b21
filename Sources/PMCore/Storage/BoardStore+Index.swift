/// A change reads the board through its index (``BoardIndex``): the
/// header, the list of ids and where each task lies, and then only the
/// tasks the change touches, so that its cost follows what it touches and
/// not how many tasks the board holds.
extension BoardStore {
    /// A board read through its index: the tasks are unread until used.
    struct IndexedBoard {
        /// The board without its tasks (held apart, so that a change
        /// changes the only array of them in place).
        var header: Board
        var tasks: [BoardTask]
        var status: FileStatus
        /// The open file the unread tasks come from.
        let file: LazyBoardFile
    }

    /// The board at `target` through its index; nil when there is no index
    /// that still describes the file (then the board is read whole).
    func readIndexed(_ target: String) -> IndexedBoard? {
        guard let bytes = try? fileSystem.readFileNoFollow(BoardIndex.path(for: target)),
            let index = BoardIndex(decoding: bytes),
            let descriptor = (try? fileSystem.openForReading(target)) ?? nil
        else { return nil }
        let file = LazyBoardFile(path: target, descriptor: descriptor, fileSystem: fileSystem)
        guard let status = try? fileSystem.descriptorStatus(descriptor),
            let header = try? file.bytes(at: 0, count: index.headerLength), index.describes(status, header: header),
            let board = BoardDecoder.decodeHeader(header)
        else { return nil }
        var tasks: [BoardTask] = []
        tasks.reserveCapacity(index.count)
        file.index = index
        for position in 0..<index.count { tasks.append(BoardTask(id: index.id(at: position), file: file, position: position)) }
        return IndexedBoard(header: board, tasks: tasks, status: status, file: file)
    }

    /// Runs `body` on the board for a command that reads a few of its tasks
    /// (`pm show`): through the index when it still describes the file, so
    /// that only the tasks `body` asks for are decoded; otherwise, or when a
    /// task it read was not what the index said (the index is then dropped),
    /// on the board read whole, as ``load()`` gives it (nil: no board yet).
    public func withFewTasks<Result>(_ body: (Board?) throws -> Result) throws -> Result {
        let target = try targetPath()
        if let indexed = readIndexed(target), indexed.header.schemaVersion >= 2,
            indexed.header.schemaVersion <= Board.currentSchemaVersion
        {
            var board = indexed.header
            board.tasks = indexed.tasks
            try rollForward(&board, log: eventLog(of: target))
            let result: Result?
            do {
                result = try body(board)
            } catch  where indexed.file.damage != nil {
                result = nil
            }
            if let result, indexed.file.damage == nil { return result }
            dropIndex(at: target)
        }
        return try body(load())
    }

    /// Writes the index of a board file just read whole, so that the next
    /// change need not. Best effort: without it, pm reads the board whole.
    func writeIndex(of board: Board, status: FileStatus, at target: String) {
        guard let index = BoardIndex(board: board, status: status) else { return }
        _ = try? AtomicFileWriter(fileSystem: fileSystem).write(
            [index.encoded()[...]], to: BoardIndex.path(for: target), mode: status.mode & 0o666)
    }

    /// The index no longer to be trusted (a task there was not what it
    /// said): removed, so that the next command reads the board whole.
    func dropIndex(at target: String) {
        try? fileSystem.remove(BoardIndex.path(for: target))
    }
}
