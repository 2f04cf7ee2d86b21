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
/// calendar day.
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
            let (parts, dated) = try bodyParts(
                of: task, state: state, whole: whole, priority: priority.flatMap { levels[$0] == nil ? $0 : nil },
                options: options)
            let (body, cut) = ImportRules.body(parts)
            var card = ImportedCard(
                sourceID: uuid.lowercased(), title: title, body: body, state: state, due: due, offset: task.offset)
            card.priority = priority.flatMap { levels[$0] }
            card.parts = try cardParts(of: task, uuid: uuid.lowercased(), user: options.user)
            if reading.note(card.parts) || whole != nil || cut { reading.shortened += 1 }
            if parts.contains(where: { !$0.isEmpty }) { reading.withHeadings += 1 }
            if dated { reading.withDates += 1 }
            card.created = try timestamp(task, "entry")
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
        of task: LocatedJSON, state: TaskState, whole: String?, priority: String?, options: ImportOptions
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
