import FoundationEssentials
import PMICU

/// When deadline reminders fire: at a local time of day (09:00 by default)
/// on the deadline day, for tasks not in DONE (DESIGN.md §7).
public struct ReminderSchedule: Sendable, Equatable {
    /// Minutes after local midnight (540 is 09:00).
    public var minutesIntoDay: Int

    /// A schedule at `hour:minute` local time.
    public init(hour: Int = 9, minute: Int = 0) {
        minutesIntoDay = hour * 60 + minute
    }

    /// Parses `HH:MM` (`PM_REMIND_AT`); nil unless a valid time of day.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else { return nil }
        self.init(hour: hour, minute: minute)
    }

    /// How long before a deadline with a time its reminder comes (issue 48:
    /// before the time, not at the day's reminder time).
    public static let leadSeconds: Int64 = 3600

    /// The tasks whose reminder is due at `now` for a viewer in `timeZone`:
    /// not done, and either a floating deadline today once the reminder time
    /// has passed, or a deadline with a time in the hour before it. A deadline
    /// already past gets none; a task re-dated to another day gets none today.
    public func due(_ tasks: [BoardTask], now: Date, zone timeZone: Zone) -> [BoardTask] {
        let today = Timestamp.civilDate(of: now, in: timeZone)
        let local = now.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: now))
        let minutes = Int((local - Double(today.daysSince1970) * 86_400) / 60)
        let seconds = Int64(now.timeIntervalSince1970.rounded(.down))
        return tasks.filter { task in
            guard task.state != .done, let deadline = task.deadline else { return false }
            if let instant = deadline.instant { return seconds >= instant - Self.leadSeconds && seconds < instant }
            return deadline.date == today && minutes >= minutesIntoDay
        }
    }

    /// The key under which a reminder is remembered as shown: the task and its
    /// deadline, so that a re-dated (or re-timed) task is reminded again.
    public static func key(_ task: BoardTask) -> String {
        let time = task.due == nil ? "" : task.dueTime.map { "T" + $0.time + "[" + $0.zone + "]" } ?? ""
        return task.id.rawValue + "@" + (task.due?.description ?? "") + time
    }
}

/// Which reminders one user has already been shown, in their state directory.
public struct ReminderLog: Sendable {
    /// The state file.
    public let path: String
    let fileSystem: FileSystem

    /// The log of `user` for the board `boardID`.
    public init(stateDirectory: String, boardID: TaskID, user: String, fileSystem: FileSystem = PosixFileSystem()) {
        path = UndoStore.stateFile("reminded", in: stateDirectory, boardID: boardID, user: user)
        self.fileSystem = fileSystem
    }

    /// The reminders already shown (keys of ``ReminderSchedule/key(_:)``), and
    /// the desktop notifications still up (key → the service's id), so that a
    /// later run can withdraw those whose task was done, deleted or redated.
    public struct State: Equatable, Sendable {
        public var shown: Set<String> = []
        public var notified: [String: UInt32] = [:]
        public init(shown: Set<String> = [], notified: [String: UInt32] = [:]) {
            self.shown = shown
            self.notified = notified
        }
    }

    /// What this user was shown; empty when there is no file.
    /// - Throws: ``PMError/unsafeFile(path:)`` when it is a symlink or not a
    ///   regular file, ``PMError/stateCorrupt(path:line:column:reason:file:)``
    ///   when it cannot be read exactly (never guessed: delete it to start afresh).
    public func load() throws -> State {
        let bytes: [UInt8]
        do {
            bytes = try fileSystem.readFileNoFollow(path)
        } catch let error as SystemCallError {
            switch error.code {
            case 2, 20: return State()  // ENOENT, ENOTDIR
            case 40, 21: throw PMError.unsafeFile(path: path)  // ELOOP, EISDIR
            default: throw PMError.readFailed(path: path, error)
            }
        }
        return try BoardDecoder.decodeStateFile(bytes, path: path, file: .reminderLog) { reader -> State in
            var state = State()
            try reader.readObject { key, reader in
                switch key {
                case "shown":
                    try reader.beginArray()
                    var firstElement = true
                    while try reader.nextElement(first: &firstElement) { state.shown.insert(try reader.readString()) }
                case "notified":
                    // Ids the notification service gave; anything else is left out, never guessed.
                    if case .object(let entries) = try reader.readValue() {
                        for (key, value) in entries {
                            if case .number(let text) = value, let id = UInt32(text) { state.notified[key] = id }
                        }
                    }
                default:
                    _ = try reader.readValue()
                }
            }
            return state
        }
    }

    /// Saves what was shown and what is still up on the desktop, dropping
    /// keys of deadlines more than 30 days before `today`.
    public func save(_ state: State, today: CivilDate) throws {
        let cutoff = today.adding(days: -30) ?? .first
        func recent(_ key: String) -> Bool {
            // `id@2026-12-01`, or with a time `id@2026-12-01T15:00[Europe/Paris]`: the day is what ages.
            guard let at = key.lastIndex(of: "@"),
                let date = CivilDate(iso: String(key[key.index(after: at)...].prefix(10)))
            else { return false }
            return date >= cutoff
        }
        let kept = state.shown.filter(recent).sorted()
        let notified = state.notified.filter { recent($0.key) }.sorted { $0.key < $1.key }
        var writer = JSONWriter()
        var members: [(String, (inout JSONWriter) -> Void)] = [
            ("shown", { w in w.array(count: kept.count, level: 1) { w, index in w.string(kept[index]) } })
        ]
        if !notified.isEmpty {
            let entries = notified.map { entry in (entry.key, { (w: inout JSONWriter) in w.raw(String(entry.value)) }) }
            members.append(("notified", { w in w.object(entries, level: 1) }))
        }
        writer.object(members, level: 0)
        writer.raw("\n")
        try AtomicFileWriter.saveStateFile(writer, to: path, role: .reminderLog, fileSystem: fileSystem)
    }
}
