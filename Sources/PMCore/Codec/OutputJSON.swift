import FoundationEssentials
import PMICU

/// The `--json` form of tasks (DESIGN.md §3): stable field names, never translated.
public enum TaskJSON {
    /// One task object.
    public static func object(_ task: BoardTask, today: CivilDate, now: Date? = nil) -> String {
        var writer = JSONWriter()
        BoardEncoder.writeTask(task, overdue: task.isOverdue(today: today, now: now), into: &writer, level: 0)
        return String(decoding: writer.finishedChunks().joined(), as: UTF8.self)
    }

    /// An array of task objects, in the given order.
    public static func array(_ tasks: [BoardTask], today: CivilDate, now: Date? = nil) -> String {
        var writer = JSONWriter()
        writer.bytes.reserveCapacity(tasks.count * 350)
        writer.array(count: tasks.count, level: 0) { writer, index in
            BoardEncoder.writeTask(tasks[index], overdue: tasks[index].isOverdue(today: today, now: now), into: &writer, level: 1)
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

/// `pm export json`: the whole board for scripts and other tools
/// (Resources/export.schema.json): which board, when, and every task as
/// `--json` writes it, in creation order. Never translated.
public enum BoardExportJSON {
    /// The format's version: a script checks it before reading on.
    public static let formatVersion = 1

    public static func document(board: TaskID, tasks: [BoardTask], exportedAt: String, today: CivilDate, now: Date? = nil)
        -> String
    {
        var writer = JSONWriter()
        writer.object(
            [
                ("board", { $0.string(board.rawValue) }),
                ("exportedAt", { $0.string(exportedAt) }),
                ("format", { $0.string("pm-board-export") }),
                ("formatVersion", { $0.raw(String(formatVersion)) }),
                (
                    "tasks",
                    { writer in
                        writer.array(count: tasks.count, level: 1) { writer, index in
                            BoardEncoder.writeTask(
                                tasks[index], overdue: tasks[index].isOverdue(today: today, now: now), into: &writer, level: 2)
                        }
                    }
                ),
            ], level: 0)
        writer.raw("\n")
        return String(decoding: writer.finishedChunks().joined(), as: UTF8.self)
    }
}

/// The `--json` form of history events: as stored, never translated.
public enum HistoryJSON {
    /// An array of events, in the given order.
    public static func array(_ events: [HistoryEvent]) -> String {
        var writer = JSONWriter()
        writer.array(count: events.count, level: 0) { writer, index in
            BoardEncoder.writeEvent(events[index], into: &writer, level: 1)
        }
        return String(decoding: writer.finishedChunks().joined(), as: UTF8.self)
    }
}

extension JSONValue {
    /// Pretty-printed with sorted keys and safe strings, as every `--json` output.
    public var prettyJSON: String {
        var writer = JSONWriter()
        writer.value(self, level: 0)
        return String(decoding: writer.finishedChunks().joined(), as: UTF8.self)
    }
}
