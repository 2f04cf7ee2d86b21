/// The index file beside a board (``BoardIndex``), a part the store holds:
/// a change reads the board through it — the header, the list of ids and
/// where each task lies, then only the tasks the change touches — so that
/// its cost follows what it touches and not how many tasks the board holds.
/// Every write is best effort: without an index, pm reads the board whole.
struct BoardIndexFile: Sendable {
    let fileSystem: FileSystem

    /// A board read through its index: the tasks are unread until used.
    struct Indexed {
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
    func read(board target: String) -> Indexed? {
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
        return Indexed(header: board, tasks: tasks, status: status, file: file)
    }

    /// Writes the index of a board file just read whole, so that the next
    /// change need not.
    func write(of board: Board, status: FileStatus, at target: String) {
        guard let index = BoardIndex(board: board, status: status) else { return }
        write(index, at: target, mode: status.mode)
    }

    /// Writes `index` beside the board file at `target` (of mode `mode`).
    func write(_ index: BoardIndex, at target: String, mode: UInt32) {
        _ = try? AtomicFileWriter(fileSystem: fileSystem).write(
            [index.encoded()[...]], to: BoardIndex.path(for: target), mode: mode & 0o666)
    }

    /// The index no longer to be trusted (a task there was not what it
    /// said): removed, so that the next command reads the board whole.
    func drop(at target: String) {
        try? fileSystem.remove(BoardIndex.path(for: target))
    }
}
