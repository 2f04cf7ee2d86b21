/// A format the board is exported to (`pm export FORMAT`): the board's
/// tasks in, one document out. The other side of ``BoardImporter``: a new
/// format is one type (here, or in a front end when it needs the reader's
/// words, as the HTML page does) and its subcommand, which hands it to the
/// one delivery every export shares (standard output, or a file written
/// whole, said in the reader's language).
public protocol BoardExporter {
    /// The document for `tasks`.
    func document(_ tasks: [BoardTask]) -> String
    /// How many things `document` holds, as its message counts them: the tasks, unless the format says otherwise.
    func itemCount(_ tasks: [BoardTask], in document: String) -> Int
}

extension BoardExporter {
    public func itemCount(_ tasks: [BoardTask], in document: String) -> Int { tasks.count }
}

/// `pm export json` (``BoardExportJSON``).
public struct JSONExporter: BoardExporter {
    public var board: TaskID
    public var exportedAt: String
    public var today: CivilDate

    public init(board: TaskID, exportedAt: String, today: CivilDate) {
        (self.board, self.exportedAt, self.today) = (board, exportedAt, today)
    }

    public func document(_ tasks: [BoardTask]) -> String {
        BoardExportJSON.document(board: board, tasks: tasks, exportedAt: exportedAt, today: today)
    }
}

/// `pm export csv` (``CSVExport``).
public struct CSVExporter: BoardExporter {
    public var delimiter: Character
    /// The header row's names (nil: pm's English ones).
    public var headers: [String]?

    public init(delimiter: Character, headers: [String]?) {
        (self.delimiter, self.headers) = (delimiter, headers)
    }

    public func document(_ tasks: [BoardTask]) -> String {
        CSVExport.document(tasks, delimiter: delimiter, headers: headers)
    }
}

/// `pm export ics` (``CalendarExport``): counted by its events (a task
/// without a deadline has none; a deleted one withdraws its own).
public struct CalendarExporter: BoardExporter {
    public var today: CivilDate
    public var now: String
    public var schedule: ReminderSchedule
    public var revisions: CalendarExport.Revisions
    public var alarmText: (String) -> String
    /// An alarm's words an hour before a deadline with a time (not "today": it may ring the day before).
    public var soonAlarmText: ((String) -> String)?
    public var assigneesText: (String) -> String

    public init(
        today: CivilDate, now: String, schedule: ReminderSchedule, revisions: CalendarExport.Revisions,
        alarmText: @escaping (String) -> String, assigneesText: @escaping (String) -> String
    ) {
        (self.today, self.now, self.schedule, self.revisions) = (today, now, schedule, revisions)
        (self.alarmText, self.assigneesText) = (alarmText, assigneesText)
    }

    public func document(_ tasks: [BoardTask]) -> String {
        CalendarExport.ics(
            tasks, today: today, now: now, schedule: schedule, revisions: revisions, alarmText: alarmText,
            soonAlarmText: soonAlarmText, assigneesText: assigneesText)
    }

    public func itemCount(_ tasks: [BoardTask], in document: String) -> Int {
        document.ranges(of: "BEGIN:VEVENT").count
    }
}
