import FoundationEssentials
import PMICU

/// An RFC 5545 calendar of the board's deadlines: one all-day event per task
/// with a deadline, whose UID is the task's id (so a re-import updates rather
/// than duplicates), its labels as CATEGORIES and its priority as PRIORITY,
/// with an alarm at the reminder time on the deadline day —
/// unless that day has passed or the task is done or deleted (then the event
/// is cancelled, with a higher SEQUENCE).
public enum CalendarExport {
    /// What the event log says of each task, for re-imports: how many
    /// changes it has had (the event's SEQUENCE) and, for a deleted task,
    /// its title and deadline when it was deleted.
    public struct Revisions: Sendable, Equatable {
        public var sequence: [TaskID: Int] = [:]
        public var deleted: [BoardTask] = []

        public init() {}

        /// Counts each task's events in merge order and keeps what the
        /// deleted ones looked like (a task deleted and restored is not deleted).
        public init(events: [Event]) {
            var last: [TaskID: (title: String, due: CivilDate?, updatedAt: String)] = [:]
            var gone: Set<TaskID> = []
            for event in FoldedTasks.inMergeOrder(events) {
                sequence[event.task, default: 0] += 1
                var entry = last[event.task] ?? (event.title ?? "", nil, event.at)
                // A deletion's fields say what went away: the task as it was is kept.
                if event.kind != .deleted {
                    if case .string(let title)? = event.fields["title"]?.new { entry.title = title }
                    switch event.fields["due"]?.new {
                    case .string(let due)?: entry.due = CivilDate(iso: due)
                    case .null?: entry.due = nil
                    default: break
                    }
                }
                entry.updatedAt = event.at
                last[event.task] = entry
                switch event.kind {
                case .deleted: gone.insert(event.task)
                case .restored, .created, .edited, .moved: gone.remove(event.task)
                case .other: break
                }
            }
            for id in gone.sorted() {
                guard let entry = last[id], let due = entry.due else { continue }
                deleted.append(
                    BoardTask(
                        id: id, title: entry.title, body: "", state: .done, due: due, createdAt: entry.updatedAt,
                        updatedAt: entry.updatedAt))
            }
        }
    }

    /// The `.ics` text: CRLF line ends, lines folded at 75 octets, text escaped.
    /// Tasks with a deadline that are not done are events with an alarm;
    /// done and deleted ones are the same UIDs with STATUS:CANCELLED and a
    /// higher SEQUENCE, so a calendar that re-imports the file withdraws
    /// their alarms.
    /// - Parameters:
    ///   - now: the export time (DTSTAMP), ISO 8601 UTC.
    ///   - alarmText: the alarm's words for a title, in the exporter's language.
    ///   - soonAlarmText: the same an hour before a deadline with a time.
    ///   - assigneesText: the description's line naming who does a task (the
    ///     names, comma-separated), in the exporter's language. Names are not
    ///     ATTENDEEs: those are addresses a calendar would write to.
    public static func ics(
        _ tasks: [BoardTask], today: CivilDate, now: String, schedule: ReminderSchedule, revisions: Revisions = Revisions(),
        alarmText: (String) -> String, soonAlarmText: ((String) -> String)? = nil,
        assigneesText: (String) -> String = { $0 }
    ) -> String {
        var lines = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//pm//pm kanban board//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH",
        ]
        lines += zones(of: tasks + revisions.deleted)
        func render(_ entry: Entry) -> [String] {
            // An hour before a time, the alarm says it is soon (it may ring the day before).
            let soon = entry.task.dueTime != nil
            return vevent(
                entry, today: today, now: now, schedule: schedule,
                alarmText: { title in
                    if soon, let soonAlarmText { return soonAlarmText(title) }
                    return alarmText(title)
                },
                assigneesText: assigneesText)
        }
        let (series, taken) = seriesEntries(tasks, revisions: revisions)
        for task in tasks where !taken.contains(task.id) {
            lines += render(
                Entry(task: task, uid: task.id, sequence: revisions.sequence[task.id] ?? 0, cancelled: task.state == .done))
        }
        lines += series.flatMap(render)
        for task in revisions.deleted where !tasks.contains(where: { $0.id == task.id }) && !taken.contains(task.id) {
            lines += render(Entry(task: task, uid: task.id, sequence: revisions.sequence[task.id] ?? 0, cancelled: true))
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined()
    }

    /// A VTIMEZONE for each zone an event starts in (``start(of:due:)``).
    static func zones(of tasks: [BoardTask]) -> [String] {
        var years: [String: ClosedRange<Int>] = [:]
        for task in tasks {
            guard let due = task.due, let time = task.dueTime, startZone(time) != nil else { continue }
            let known = years[time.zone]
            years[time.zone] = min(known?.lowerBound ?? due.year, due.year)...max(known?.upperBound ?? due.year, due.year)
        }
        return years.keys.sorted().flatMap { id -> [String] in
            guard let range = years[id], let zone = Zone(identifier: id) else { return [] }
            return CalendarZones.vtimezone(id, zone: zone, years: range.lowerBound...min(9999, range.upperBound + 10))
        }
    }

    /// The zone an event at `time` starts in by name: a zone of the database
    /// this system knows; nil for UTC, an offset or a zone it does not know
    /// (read as UTC: the event then starts at that instant in UTC).
    static func startZone(_ time: DueTime) -> Zone? {
        guard time.zone.contains("/"), !time.zone.hasPrefix("Etc/") else { return nil }
        return Zone(identifier: time.zone)
    }

    /// One event of the calendar: a task, or a series by its open occurrence.
    struct Entry {
        var task: BoardTask
        var uid: TaskID
        var sequence: Int
        var cancelled: Bool
        /// The series' rule, for a series' event.
        var rule: Series? = nil
    }

    /// One event per recurring series, not one per occurrence (a calendar
    /// expands the rule): its UID the series' id, its start the deadline of
    /// its open occurrence (the earliest, when several are open), its
    /// SEQUENCE the count of every change to the series' tasks, so that it
    /// moves on as occurrences are done. A series with none open (stopped, or
    /// every occurrence done) is cancelled. The occurrences done are the
    /// series' past: no event of their own.
    /// - Returns: the series' events, and the tasks they stand for (which
    ///   have no event of their own).
    static func seriesEntries(_ tasks: [BoardTask], revisions: Revisions) -> ([Entry], Set<TaskID>) {
        var members: [TaskID: [BoardTask]] = [:]
        for task in tasks { if let series = task.recur?.series { members[series, default: []].append(task) } }
        var entries: [Entry] = []
        var taken = Set(members.keys)
        for (series, group) in members.sorted(by: { $0.key < $1.key }) {
            let sequence = group.reduce(0) { $0 + (revisions.sequence[$1.id] ?? 0) }
            let open = group.filter { $0.state != .done && $0.due != nil }.sorted {
                ($0.due ?? .first, $0.id) < ($1.due ?? .first, $1.id)
            }
            let done = group.filter { $0.state == .done && $0.due != nil }.sorted {
                ($0.due ?? .first, $0.id) < ($1.due ?? .first, $1.id)
            }
            if let first = open.first, let rule = first.recur {
                entries.append(Entry(task: first, uid: series, sequence: sequence, cancelled: false, rule: rule))
                taken.insert(first.id)
            } else if let last = done.last {
                entries.append(Entry(task: last, uid: series, sequence: sequence, cancelled: true))
            }
            for task in done { taken.insert(task.id) }
        }
        return (entries, taken)
    }

    /// An event's lines.
    static func vevent(
        _ entry: Entry, today: CivilDate, now: String, schedule: ReminderSchedule, alarmText: (String) -> String,
        assigneesText: (String) -> String
    ) -> [String] {
        let task = entry.task
        guard let due = task.due else { return [] }
        var lines = [
            "BEGIN:VEVENT",
            "UID:" + entry.uid.rawValue,
            "DTSTAMP:" + basic(now),
            "LAST-MODIFIED:" + basic(task.updatedAt),
            "SEQUENCE:" + String(entry.sequence),
            "STATUS:" + (entry.cancelled ? "CANCELLED" : "CONFIRMED"),
        ]
        lines += start(of: task, due: due)
        if let rule = entry.rule { lines.append("RRULE:" + rule.rrule) }
        lines.append("SUMMARY:" + escape(task.title))
        // Labels as the calendar's categories, each escaped; the priority on RFC 5545's scale (1 highest).
        if !task.labels.isEmpty { lines.append("CATEGORIES:" + task.labels.map(escape).joined(separator: ",")) }
        if let priority = task.priority { lines.append("PRIORITY:" + String(icsPriority(priority))) }
        var description = task.body
        if !task.assignees.isEmpty {
            let names = assigneesText(task.assignees.joined(separator: ", "))
            description = description.isEmpty ? names : description + "\n\n" + names
        }
        if !description.isEmpty { lines.append("DESCRIPTION:" + escape(description)) }
        // A series' alarm rings before each date it gives, the first among them.
        let ahead: Bool
        if let instant = task.deadline?.instant, let millis = Timestamp.milliseconds(of: now) {
            ahead = Double(instant) * 1000 > millis
        } else {
            ahead = due >= today
        }
        if (ahead || entry.rule != nil) && !entry.cancelled {
            // A floating date starts at local midnight wherever the calendar
            // is; a time is reminded of an hour before, as `pm remind` does.
            let trigger = task.dueTime == nil ? duration(schedule.minutesIntoDay) : "-PT1H"
            lines += [
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:" + escape(alarmText(task.title)),
                "TRIGGER;RELATED=START:" + trigger, "END:VALARM",
            ]
        }
        lines.append("END:VEVENT")
        return lines
    }

    /// When an event starts: an all-day event on a floating date; a deadline
    /// with a time at that time in its zone (`TZID`, its IANA name, which a
    /// VTIMEZONE describes), or in UTC for a zone that is an offset or that
    /// this system does not know. A deadline is a moment: no end.
    static func start(of task: BoardTask, due: CivilDate) -> [String] {
        guard let time = task.dueTime else {
            // 9999-12-31 has no next day to end on: a one-day duration says the same.
            return [
                "DTSTART;VALUE=DATE:" + compact(due),
                due.adding(days: 1).map { "DTEND;VALUE=DATE:" + compact($0) } ?? "DURATION:P1D",
            ]
        }
        if startZone(time) != nil {
            // As its zone's clock shows it (02:30 on the night clocks skip it is 03:30).
            let local = Deadline(date: due, time: time).shown(in: time.zoneValue)
            let wall = (local.time ?? time.time).filter { $0 != ":" } + "00"
            return ["DTSTART;TZID=" + time.zone + ":" + compact(local.date) + "T" + wall]
        }
        let instant = Timestamp.string(from: Date(timeIntervalSince1970: Double(time.instant(on: due))))
        return ["DTSTART:" + basic(instant)]
    }

    /// A priority as RFC 5545 ranks it (§3.8.1.9: 1 highest, 9 lowest; 0 undefined, so none is left out).
    static func icsPriority(_ priority: Priority) -> Int {
        switch priority {
        case .urgent: return 1
        case .high: return 3
        case .normal: return 5
        case .low: return 7
        }
    }

    /// TEXT escaping (RFC 5545 §3.3.11); control characters other than
    /// newline and tab, which a calendar may not carry, are shown escaped.
    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in TextSafety.escaped(text, keepNewlines: true).unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A content line folded at 75 octets (never inside a UTF-8 sequence), ending in CRLF.
    static func fold(_ line: String) -> String {
        var result = ""
        var octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > 75 {
                result += "\r\n "
                octets = 1
            }
            result.unicodeScalars.append(scalar)
            octets += size
        }
        return result + "\r\n"
    }

    static func compact(_ date: CivilDate) -> String {
        date.description.filter { $0 != "-" }
    }

    /// `2026-11-21T10:00:00.000Z` → `20261121T100000Z`.
    static func basic(_ stored: String) -> String {
        let digits = stored.prefix(19).filter { $0.isNumber }
        guard digits.count == 14 else { return "19700101T000000Z" }
        return String(digits.prefix(8)) + "T" + String(digits.suffix(6)) + "Z"
    }

    /// `PT9H`, `PT7H30M`, `PT0M`.
    static func duration(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        if rest == 0 { return hours == 0 ? "PT0M" : "PT\(hours)H" }
        return hours == 0 ? "PT\(rest)M" : "PT\(hours)H\(rest)M"
    }
}
