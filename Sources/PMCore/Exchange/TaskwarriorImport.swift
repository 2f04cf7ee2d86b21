import FoundationEssentials

/// `task export` output: a JSON array of tasks (Taskwarrior 2.6 and 3), or
/// one task per line (older versions).
///
/// Pending and waiting tasks go to TODO, started ones (`start`) to DOING,
/// completed ones to DONE; deleted tasks are left out unless asked for (then
/// DONE), and a recurring task's template always (its instances are the
/// tasks). The description is the title; tags are labels, the priority
/// H, M or L is high, normal or low, annotations are comments (by the
/// task's owner when the export names one, else the importer, at the
/// annotation's time); the project, a start and any other priority go in
/// the body, readable; the due timestamp (UTC) becomes the reader's
/// calendar day. A recurring task's instances (`recur`, `until`, their
/// template's uuid as `parent`) are one recurring series; a period pm has
/// no rule for is kept in the body.
public enum TaskwarriorImport: BoardImporter {
    public static func read(_ bytes: [UInt8], options: ImportOptions) throws -> ImportReading {
        let documents = try LocatedJSON.parseSequence(bytes, many: true)
        let tasks: [LocatedJSON]
        if documents.count == 1, let array = documents[0].elements {
            tasks = array
        } else {
            tasks = documents
        }
        guard !documents.isEmpty else { throw ImportFailure(offset: 0, problem: .empty) }
        var reading = ImportReading()
        var seen = Set<String>()
        for task in tasks {
            guard task.members != nil, task["description"] != nil || task["uuid"] != nil else {
                throw ImportFailure(offset: task.offset, problem: .notA(.taskwarrior))
            }
            guard let uuid = try task.string("uuid"), TaskID(uuid) != nil else { throw task.wrong("uuid") }
            guard seen.insert(uuid.lowercased()).inserted else {
                throw ImportFailure(offset: task.offset, problem: .duplicateID(uuid))
            }
            guard let state = try state(of: task, includeAll: options.includeAll, leftOut: &reading.leftOut) else { continue }
            guard reading.cards.count < ImportRules.cardLimit else {
                throw ImportFailure(offset: task.offset, problem: .tooManyCards(ImportRules.cardLimit))
            }
            let (title, whole) = try ImportRules.title(
                task.string("description") ?? "", at: task["description"]?.offset ?? task.offset)
            let due = try date(task, "due", zone: options.zone)
            let priority = try task.string("priority")
            let period = try task.string("recur")
            let rule = period.flatMap(Self.rule)
            let (parts, dated) = try bodyParts(
                of: task, state: state, whole: whole, priority: priority.flatMap { levels[$0] == nil ? $0 : nil },
                period: rule == nil ? period : nil, options: options)
            let (body, cut) = ImportRules.body(parts)
            var card = ImportedCard(
                sourceID: uuid.lowercased(), title: title, body: body, state: state, due: due, offset: task.offset)
            card.priority = priority.flatMap { levels[$0] }
            card.dueTime = try dueTime(task, zone: options.zone)
            card.parts = try cardParts(of: task, uuid: uuid.lowercased(), user: options.user)
            if reading.note(card.parts) || whole != nil || cut { reading.shortened += 1 }
            if parts.contains(where: { !$0.isEmpty }) { reading.withHeadings += 1 }
            if dated { reading.withDates += 1 }
            card.created = try timestamp(task, "entry")
            if let rule {
                let series = try task.string("parent")?.lowercased() ?? uuid.lowercased()
                card.recur = ImportedRecurrence(rule: rule, until: try date(task, "until", zone: options.zone), series: series)
            }
            reading.cards.append(card)
        }
        return reading
    }

    /// The column a task's status puts it in; nil for one left out: a
    /// deleted task unless all are asked for (counted in `leftOut`), a
    /// recurring task's template.
    private static func state(of task: LocatedJSON, includeAll: Bool, leftOut: inout Int) throws -> TaskState? {
        let status = try task.string("status") ?? "pending"
        switch status {
        case "pending", "waiting": return task["start"] == nil ? .todo : .doing
        case "completed": return .done
        case "deleted":
            guard includeAll else {
                leftOut += 1
                return nil
            }
            return .done
        case "recurring": return nil
        default: throw task["status"]?.wrong("status") ?? task.wrong("status")
        }
    }

    /// A Taskwarrior recurrence period (`weekly`, `biweekly`, `quarterly`,
    /// `weekdays`, `3d`, `2wks`, `P1M`…) as pm's rule, counted from the
    /// task's due day; nil for a period pm has no rule for (kept in the body).
    static func rule(_ text: String) -> Recurrence? {
        let named: [String: (Recurrence.Frequency, Int)] = [
            "daily": (.daily, 1), "day": (.daily, 1), "weekly": (.weekly, 1), "week": (.weekly, 1),
            "sennight": (.weekly, 1), "biweekly": (.weekly, 2), "fortnight": (.weekly, 2), "monthly": (.monthly, 1),
            "month": (.monthly, 1), "bimonthly": (.monthly, 2), "quarterly": (.monthly, 3), "semiannual": (.monthly, 6),
            "annual": (.yearly, 1), "yearly": (.yearly, 1), "year": (.yearly, 1), "biannual": (.yearly, 2),
            "biyearly": (.yearly, 2),
        ]
        var lowered = text.lowercased()
        if lowered == "weekdays" { return Recurrence(.weekly, weekdays: Array(1...5)) }
        if let (frequency, interval) = named[lowered] { return Recurrence(frequency, interval: interval) }
        // ISO 8601 (`P2W`) or Taskwarrior's own (`2w`, `3 days`): a count and a unit.
        if lowered.hasPrefix("p") { lowered.removeFirst() }
        let digits = lowered.prefix { $0.isASCII && $0.isNumber }
        let unit = String(lowered.dropFirst(digits.count)).trimmingASCIIWhitespace()
        let units: [String: (Recurrence.Frequency, Int)] = [
            "d": (.daily, 1), "day": (.daily, 1), "days": (.daily, 1), "w": (.weekly, 1), "wk": (.weekly, 1),
            "wks": (.weekly, 1), "week": (.weekly, 1), "weeks": (.weekly, 1), "m": (.monthly, 1), "mo": (.monthly, 1),
            "mos": (.monthly, 1), "mth": (.monthly, 1), "mths": (.monthly, 1), "month": (.monthly, 1),
            "months": (.monthly, 1), "q": (.monthly, 3), "qtr": (.monthly, 3), "qtrs": (.monthly, 3),
            "quarter": (.monthly, 3), "quarters": (.monthly, 3), "y": (.yearly, 1), "yr": (.yearly, 1),
            "yrs": (.yearly, 1), "year": (.yearly, 1), "years": (.yearly, 1),
        ]
        guard digits.count <= 4, let count = digits.isEmpty ? 1 : Int(digits), let (frequency, per) = units[unit]
        else { return nil }
        return Recurrence(frequency, interval: count * per)
    }

    /// Taskwarrior's own priorities, as pm's.
    private static let levels: [String: Priority] = ["H": .high, "M": .normal, "L": .low]

    /// A task's tags as labels and its annotations as comments (ids derived
    /// from the task's uuid and the annotation), by the task's owner when
    /// the export names one, else `user`.
    private static func cardParts(of task: LocatedJSON, uuid: String, user: String) throws -> ImportedParts {
        var parts = ImportedParts()
        for tag in try task.array("tags") {
            guard case .string(let text) = tag.value else { throw tag.wrong("tags") }
            try parts.addLabel(text, at: tag.offset)
        }
        let author = try task.string("owner") ?? user
        let made = try timestamp(task, "entry")
        for annotation in try task.array("annotations") {
            let text = try annotation.string("description") ?? ""
            // An annotation without a time of its own was made no earlier than its task.
            guard let at = try timestamp(annotation, "entry") ?? made else { continue }
            try parts.addComment(
                sourceID: uuid + "\u{0}" + at + "\u{0}" + text, by: author, at: at, text: text, offset: annotation.offset)
        }
        parts.keepNewestComments()
        return parts
    }

    /// A task's body in parts: the whole title when cut, then the facts pm
    /// has no field for (project, a priority other than H, M or L, when it
    /// started); `dated` when it says when something happened.
    private static func bodyParts(
        of task: LocatedJSON, state: TaskState, whole: String?, priority: String?, period: String?, options: ImportOptions
    ) throws -> (parts: [String], dated: Bool) {
        let words = options.words
        var parts: [String] = []
        if let whole { parts.append(words.fullTitle + words.separator + whole) }
        var facts: [String] = []
        if let project = try task.string("project") {
            facts.append(words.project + words.separator + (try ImportRules.bodyText(project, at: task.offset)))
        }
        if let priority {
            facts.append(words.priority + words.separator + (try ImportRules.bodyText(priority, at: task.offset)))
        }
        if let period {
            facts.append(words.recur + words.separator + (try ImportRules.bodyText(period, at: task.offset)))
        }
        if state == .doing, let started = try date(task, "start", zone: options.zone) {
            facts.append(words.started + words.separator + started.description)
        }
        parts.append(facts.joined(separator: "\n"))
        return (parts, facts.contains(where: { $0.hasPrefix(words.started) }))
    }

    /// A Taskwarrior timestamp (`20261203T050000Z`, or ISO 8601) as the
    /// calendar day in `zone`; nil when absent.
    static func date(_ task: LocatedJSON, _ field: String, zone: Zone) throws -> CivilDate? {
        try timestamp(task, field).flatMap { ImportRules.day(ofTimestamp: $0, zone: zone) }
    }

    /// The time of day of Taskwarrior's `due` in the importer's zone; nil for
    /// none, or for midnight (what Taskwarrior stores for a day given without
    /// a time).
    static func dueTime(_ task: LocatedJSON, zone: Zone) throws -> DueTime? {
        guard let stored = try timestamp(task, "due"), let millis = Timestamp.milliseconds(of: stored) else { return nil }
        let instant = Date(timeIntervalSince1970: millis / 1000)
        let local = Int64((millis / 1000).rounded(.down)) + Int64(zone.secondsFromGMT(for: instant))
        let minutes = Int(((local % 86_400) + 86_400) % 86_400) / 60
        guard minutes != 0 else { return nil }
        let name = DueTime.zoneName(of: zone, at: Int64((millis / 1000).rounded(.down)))
        return DueTime(hour: minutes / 60, minute: minutes % 60, zone: name)
    }

    /// A Taskwarrior timestamp as pm stores times; nil when absent.
    static func timestamp(_ task: LocatedJSON, _ field: String) throws -> String? {
        guard let text = try task.string(field) else { return nil }
        var iso = text
        let bytes = Array(text.utf8)
        if bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") {
            let s = { (range: Range<Int>) in String(decoding: bytes[range], as: UTF8.self) }
            iso = "\(s(0..<4))-\(s(4..<6))-\(s(6..<8))T\(s(9..<11)):\(s(11..<13)):\(s(13..<15))Z"
        }
        guard let date = Timestamp.parse(iso, zone: .utc), ImportRules.inRange(date) else {
            throw ImportFailure(offset: task[field]?.offset ?? task.offset, problem: .badDate(text))
        }
        return Timestamp.string(from: date)
    }
}
