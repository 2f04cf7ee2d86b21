import PMCore
import PMKit

#if canImport(Glibc)
    import Glibc
#endif

/// The board as the server last read it, and the open pages to tell when
/// it changes. A change from anywhere (a command, `pm board`, another
/// browser, a sync) changes the board's file or its log; the server looks
/// at both five times a second, rereads the board once, and tells every
/// open page, which asks for its parts again. Pages are told at most five
/// times a second, however many changes come (each change's author gets
/// its parts in the answer at once).
final class LiveBoard {
    private let session: BoardSession
    private let paths: [String]
    private var seen: [FileStamp?] = []
    private var board: Board?
    private var sinks: [Int: (sink: EventSink, visitor: String)] = [:]
    private var nextSink = 0
    /// A change the pages have not been told of yet.
    private var untold = false
    /// Bumped at each change seen: the pages' event ids, and what the
    /// parts made for them are kept under.
    private(set) var version = 0

    init(session: BoardSession) {
        self.session = session
        let path = session.environment.boardPath
        paths = [path, EventLogFile(boardPath: path).path]
        seen = paths.map(FileStamp.init)
    }

    /// The board now: read again only when its files changed, and then,
    /// when its log only grew, by folding in what it gained (a 10k board is
    /// not decoded again for each change).
    func current() throws -> Board {
        let stamps = paths.map(FileStamp.init)
        if let board, stamps == seen { return board }
        let read: Board
        if var kept = board, let was = seen[1], let now = stamps[1], was.inode == now.inode, now.size >= was.size,
            (try? session.store().catchUp(&kept)) != nil, kept.log.length == Int(now.size)
        {
            read = kept
        } else {
            read = try session.loadBoard()
        }
        if stamps != seen {
            // Seen here first: the pages are still told, at the next look.
            version += 1
            untold = true
        }
        seen = stamps
        board = read
        return read
    }

    /// Looks at the files, and tells every page of what changed since it was last told.
    func poll() {
        let stamps = paths.map(FileStamp.init)
        if stamps != seen {
            // The pages are told; the board is caught up when next read.
            _ = try? current()
            untold = true
        }
        guard untold else { return }
        untold = false
        for entry in sinks.values { entry.sink.send("event: change\nid: \(version)\ndata: \(version)\n\n") }
    }

    /// Something every page shows besides the board changed (the sync's
    /// state): they are told at the next look.
    func changed(force: Bool = false) {
        if force {
            version += 1
            untold = true
        }
    }

    /// Adds a page's event stream (of the visitor whose cookie is `visitor`);
    /// returns its key for ``remove(_:)``.
    func add(_ sink: EventSink, visitor: String) -> Int {
        // At most 8 streams a browser: its oldest is closed (tabs come and go).
        let theirs = sinks.filter { $0.value.visitor == visitor }.keys.sorted()
        for key in theirs.dropLast(7) {
            sinks[key]?.sink.close()
            sinks[key] = nil
        }
        nextSink += 1
        sinks[nextSink] = (sink, visitor)
        sink.send("retry: 1000\n\n")
        return nextSink
    }

    func remove(_ key: Int) { sinks[key] = nil }

    /// Keeps idle streams open through proxies, and finds the closed ones.
    func heartbeat() {
        for entry in sinks.values { entry.sink.send(": \n\n") }
    }

    /// Closes every page's stream (the server stops).
    func closeAll() {
        for entry in sinks.values { entry.sink.close() }
        sinks = [:]
    }

    /// Closes the streams of these visitors (their link was revoked).
    func close(visitors: [String]) {
        let gone = Set(visitors)
        for (key, entry) in sinks where gone.contains(entry.visitor) {
            entry.sink.close()
            sinks[key] = nil
        }
    }

    var openStreams: Int { sinks.count }
}

/// What tells that a file changed: its inode, size and change time.
struct FileStamp: Equatable {
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = info.st_ctim.tv_sec
        nanoseconds = info.st_ctim.tv_nsec
    }
}
