/// A log put back from a backup while `board.json` stayed (issue 20): the
/// log is the truth, so the board goes back to it — and what only
/// `board.json` still holds (tasks added, changed or removed since the
/// backup) is made again as new changes of this copy, so nothing the
/// person saw is lost. `board.json` as it was is kept beside it.
extension BoardStore {
    /// What a recovery did: how many tasks it kept from `board.json`, and
    /// where that file is kept as it was.
    public struct OlderLogRecovery: Equatable, Sendable {
        public var kept: Int
        public var copy: String
    }

    /// Whether the log is shorter than `board.json` says it is (a prefix of
    /// the board file and a stat: cheap enough for every command).
    /// Whether the log is shorter than the board file says (a cheap look):
    /// ``recoverOlderLog(replica:author:at:stamp:makeID:)`` has work to do.
    public func olderLogNeedsRecovery() -> Bool {
        guard let path = try? targetPath() else { return false }
        return logIsBehindBoard(path, log: eventLog(of: path))
    }

    func logIsBehindBoard(_ target: String, log: EventLogFile) -> Bool {
        guard let descriptor = try? fileSystem.openForReading(target) else { return false }
        defer { try? fileSystem.close(descriptor) }
        guard let prefix = try? fileSystem.read(descriptor, at: 0, count: 4096),
            let length = Self.logLength(inPrefix: prefix), length > 0,
            let size = try? logSize(log), size > 0
        else { return false }
        return size < length
    }

    /// The `log.length` a board file's first bytes give (pm writes `id`,
    /// then `log`, at its top).
    static func logLength(inPrefix bytes: [UInt8]) -> Int? {
        guard let log = bytes.firstOffset(of: Array(#""log""#.utf8)),
            let key = bytes.firstOffset(of: Array(#""length""#.utf8), from: log + 5)
        else { return nil }
        var index = key + 8
        while index < bytes.count, bytes[index] == UInt8(ascii: ":") || bytes[index] == UInt8(ascii: " ") {
            index += 1
        }
        let digits = bytes[index...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    /// Goes back to a log older than `board.json`, keeping what only the
    /// board file holds as new changes by `author` at `time`; nil when the
    /// log is not older.
    /// - Parameter remote: the events the remote held at the last sync (its
    ///   folder, or pm's clone of it), each admitted by the gate: what the
    ///   backup lacks is taken from there first, as it was made.
    public func recoverOlderLog(
        replica: TaskID, author: String, at time: String, stamp: String, remote: [Event] = [], makeID: () -> TaskID
    ) throws -> OlderLogRecovery? {
        let path = try targetPath()
        guard logIsBehindBoard(path, log: eventLog(of: path)) else { return nil }
        return try withLock { lock, target in
            var commit = try BoardCommit(store: self, lock: lock, target: target, newBoardID: replica, throughIndex: false)
            let log = commit.log
            guard let current = commit.file, current.board.schemaVersion == Board.currentSchemaVersion,
                try log.exists(), try logSize(log) < current.board.log.length
            else { return nil }
            let kept = current.board
            // The board file as it was, never lost.
            let copy = try keepBoardFile(target, stamp: stamp, mode: current.status.mode)
            // The remote's copy of the changes first (this copy's own among
            // them), as they were made: a recovery never outranks what other
            // copies saw (issue 43).
            let logged = try log.readAll().events
            let backup = Set(logged.map(\.id))
            var named = Set(logged.map(\.task))
            var known = backup
            let missing = FoldedTasks.inMergeOrder(remote).filter { known.insert($0.id).inserted && $0.recordedBoard == nil }
            if !missing.isEmpty { _ = try log.append(missing) }
            named.formUnion(missing.map(\.task))
            try commit.refoldFromLog()
            var before = commit.board.tasks
            let replay = BoardFileReplay(kept: kept, known: known, backup: backup, named: named, author: author, time: time)
            var changed = Set<TaskID>()
            // Tasks and their text first, then the columns: one event a task each time.
            try replay.remakeTasks(on: &commit.board, before: before, changed: &changed, makeID: makeID)
            var events = sealed(Self.events(of: commit.board, replica: replica).map(Self.seenNothing))
            commit.board.history = HistoryLog()
            commit.board.log.clock = events.last?.clock ?? commit.board.log.clock
            try replay.remakeColumns(on: &commit.board, changed: &changed, makeID: makeID)
            events += sealed(Self.events(of: commit.board, replica: replica).map(Self.seenNothing))
            let end = try commit.append(events, merged: false)
            _ = try commit.fold(events, onto: &before, end: end, merged: false)
            // Written whole, and a failure said: the file stands ahead of its
            // log until it is, and the recovery would run again.
            if lock.stillHeld() { try writeBoard(commit.board, to: target, mode: current.status.mode) }
            return OlderLogRecovery(kept: changed.count, copy: copy)
        }
    }

    /// Keeps `board.json` as it was beside it, named with `stamp`; returns that copy's path.
    private func keepBoardFile(_ target: String, stamp: String, mode: UInt32) throws -> String {
        let copy = String(target.dropLast(target.hasSuffix(".json") ? 5 : 0)) + ".before-log-restore-" + stamp + ".json"
        _ = try AtomicFileWriter(fileSystem: fileSystem).write([try fileSystem.readFile(target)[...]], to: copy, mode: mode)
        return copy
    }

    /// A recovered edit or move as one that saw nothing: it replaces no
    /// value, so a value another copy wrote since stays beside it as a
    /// conflict instead of being outranked by the recovery's later clock.
    static func seenNothing(_ event: Event) -> Event {
        guard event.kind == .edited || event.kind == .moved else { return event }
        var event = event
        event.seen = []
        return event
    }
}

extension BoardStore {
    /// A schema-1 board whose conversion cuts a text to what every copy
    /// takes (``LegacyMigration/admissible(_:)``): the file as it was is kept
    /// beside it, once (`board.schema-1.json`), never replaced.
    func keepSchemaOneFile(_ board: Board, at target: String, mode: UInt32) throws {
        guard try LegacyMigration.cutsText(of: board) else { return }
        let copy = String(target.dropLast(target.hasSuffix(".json") ? 5 : 0)) + ".schema-1.json"
        guard try fileSystem.linkStatus(copy) == nil else { return }
        _ = try AtomicFileWriter(fileSystem: fileSystem).write([try fileSystem.readFile(target)[...]], to: copy, mode: mode)
    }
}

/// What only `board.json` holds, made again on the board the log gives:
/// only what it holds newer than the log — a value whose change the log
/// lacks; a task the log knows of but no longer shows was deleted since.
private struct BoardFileReplay {
    /// `board.json` as it was.
    let kept: Board
    /// The events the log holds: the backup's and the remote's.
    let known: Set<TaskID>
    /// The events the backup held.
    let backup: Set<TaskID>
    /// The tasks the log names.
    let named: Set<TaskID>
    let author: String
    let time: String

    /// Whether `board.json`'s value of `field` has a change the log lacks.
    func newer(_ field: String, of task: BoardTask) -> Bool {
        let heads = task.heads[field] ?? []
        return heads.isEmpty || heads.contains { !known.contains($0.event) }
    }

    /// Tasks and their text: edited where `board.json` holds newer, added
    /// where the log never named them, deleted where `board.json` lacks them
    /// (of the board's tasks `before`).
    func remakeTasks(on board: inout Board, before: [BoardTask], changed: inout Set<TaskID>, makeID: () -> TaskID) throws {
        for task in kept.tasks {
            if let now = board.task(task.id) {
                var edit = Board.Edit()
                if now.title != task.title, newer("title", of: task) { edit.title = task.title }
                if now.body != task.body, newer("body", of: task) { edit.body = task.body }
                if now.due != task.due, newer("due", of: task) { edit.due = .some(task.due) }
                if edit.title != nil || edit.body != nil || edit.due != nil {
                    _ = try board.edit(task.id, edit, eventID: makeID(), by: author, at: time)
                    changed.insert(task.id)
                }
            } else if !named.contains(task.id) {
                _ = try board.add(
                    title: task.title, body: task.body, due: task.due, id: task.id, eventID: makeID(), by: author, at: time)
                changed.insert(task.id)
            }
        }
        // A task board.json lacks was deleted since the backup, unless
        // the remote's copy changed it since (a teammate's change).
        for task in before
        where kept.task(task.id) == nil && (task.heads.values.joined().map(\.event) + task.live).allSatisfy(backup.contains) {
            _ = try board.delete(task.id, eventID: makeID(), by: author, at: time)
            changed.insert(task.id)
        }
    }

    /// The columns: each task moved where `board.json` has it, when that is newer.
    func remakeColumns(on board: inout Board, changed: inout Set<TaskID>, makeID: () -> TaskID) throws {
        for task in kept.tasks
        where board.task(task.id).map({ $0.state != task.state }) == true && newer("state", of: task) {
            _ = try board.move(task.id, to: task.state, eventID: makeID(), by: author, at: time)
            changed.insert(task.id)
        }
    }
}
