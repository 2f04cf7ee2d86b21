import FoundationEssentials
import PMICU
import PMSign

/// Where an import's cards come from (`pm import trello|taskwarrior|csv`).
public enum ImportSource: String, CaseIterable, Sendable {
    case trello, taskwarrior, csv
}

/// Why an import file is refused, at a byte offset of the file.
public struct ImportFailure: Error, Equatable, Sendable {
    /// Where in the file (a byte offset; the message gives line and column).
    public var offset: Int
    public var problem: ImportProblem

    public init(offset: Int, problem: ImportProblem) {
        self.offset = offset
        self.problem = problem
    }

    /// The 1-based line and column (in characters) of the failure in `bytes`.
    public func position(in bytes: [UInt8]) -> (line: Int, column: Int) {
        BoardDecoder.position(of: offset, in: bytes)
    }
}

/// What is wrong with an import file.
public enum ImportProblem: Equatable, Sendable {
    /// Nothing in it.
    case empty
    /// Not UTF-8 here.
    case invalidUTF8
    /// Not JSON (or not CSV) here.
    case syntax
    /// It stops before it is complete.
    case truncated
    /// An object names this key twice.
    case duplicateKey(String)
    /// Nested deeper than this.
    case tooDeep(Int)
    /// Larger than this many bytes.
    case tooLarge(Int)
    /// More cards than this.
    case tooManyCards(Int)
    /// Not a file or a pipe (a device).
    case notAFile
    /// More values (JSON values, CSV cells) than this.
    case tooManyValues(Int)
    /// Not this kind of export at all (a Trello board, a Taskwarrior export, a CSV with a title column).
    case notA(ImportSource)
    /// This field is missing or does not hold what it should.
    case field(String)
    /// A card with no title.
    case emptyTitle
    /// A control, escape or bidi character a person would not see.
    case unsafeCharacter(Unicode.Scalar)
    /// A date that cannot be read.
    case badDate(String)
    /// A column state no language names.
    case badState(String)
    /// A priority no language names.
    case badPriority(String)
    /// Two rows or cards share this id.
    case duplicateID(String)
}

/// A card read from another tool, before it is a task.
public struct ImportedCard: Equatable, Sendable {
    /// Its id in the source (a Trello card id, a Taskwarrior uuid, a CSV id or title).
    public var sourceID: String
    public var title: String
    /// The description, then what pm has no field for, readable.
    public var body: String
    public var state: TaskState
    public var due: CivilDate?
    public var assignees: [String]
    public var priority: Priority?
    /// Its labels, checklist and comments.
    public var parts = ImportedParts()
    /// Where it starts in the file.
    public var offset: Int
    /// When it was made in its source (ISO 8601 UTC), when the source says.
    public var created: String?
    /// Its recurring deadline, when its source has one.
    public var recur: ImportedRecurrence?
    /// Its deadline's time of day, when its source gives one.
    public var dueTime: DueTime?

    public init(
        sourceID: String, title: String, body: String = "", state: TaskState = .todo, due: CivilDate? = nil,
        assignees: [String] = [], offset: Int = 0
    ) {
        self.sourceID = sourceID
        self.title = title
        self.body = body
        self.state = state
        self.due = due
        self.assignees = assignees
        self.offset = offset
    }
}

/// How a Trello list (or another source's column) became one of pm's three.
public struct ListMapping: Equatable, Sendable {
    public enum How: Equatable, Sendable {
        /// Asked for with `--map`.
        case asked
        /// Its name is a column's in some language ("Done", "Terminé", "완료").
        case named
        /// Not recognised: TODO.
        case unknown
    }

    public var name: String
    public var state: TaskState
    public var how: How
    /// Cards it gives.
    public var cards: Int
    /// An archived list (Trello): its cards come only with `--all`.
    public var archived: Bool

    public init(name: String, state: TaskState, how: How, cards: Int = 0, archived: Bool = false) {
        self.name = name
        self.state = state
        self.how = how
        self.cards = cards
        self.archived = archived
    }
}

/// What an importer read.
public struct ImportReading: Equatable, Sendable {
    public var cards: [ImportedCard] = []
    /// Trello's lists, in board order, with their cards' count.
    public var lists: [ListMapping] = []
    /// Archived (Trello) or deleted (Taskwarrior) cards left out.
    public var leftOut = 0
    /// Cards whose title or body was cut to pm's limits (the whole title is kept in the body).
    public var shortened = 0
    /// Cards whose body holds what pm has no field for, under headings in
    /// the importer's language (``ImportWords``).
    public var withHeadings = 0
    /// Cards whose body holds a date pm wrote there (a start): ISO, as
    /// every reader reads it alike.
    public var withDates = 0
    /// Labels and comments left out because pm cannot keep their names.
    public var partsLeftOut = 0
    /// Those names, each once.
    public var refusedNames: [String] = []

    public init() {}
}

/// A recurring deadline read from a source: its rule, the last day it may
/// fall on, and the series it belongs to in its source (a Taskwarrior
/// template's uuid): the cards of one source series are one series on the board.
public struct ImportedRecurrence: Equatable, Sendable {
    public var rule: Recurrence
    public var until: CivilDate?
    public var series: String

    public init(rule: Recurrence, until: CivilDate?, series: String) {
        (self.rule, self.until, self.series) = (rule, until, series)
    }
}

/// The words an import writes into bodies, in the importer's language.
public struct ImportWords: Sendable {
    /// A Taskwarrior priority that is none of H, M and L (a setting of its own).
    public var priority = "Priority"
    public var project = "Project"
    public var members = "Members"
    public var link = "Link"
    public var fullTitle = "Full title"
    public var started = "Started"
    /// A recurrence pm could not read (kept as its source wrote it).
    public var recur = "Repeats"
    /// Between a heading and its value (French puts a space before the colon).
    public var separator = ": "

    public init() {}
}

/// What the reader of an import knows that the file does not.
public struct ImportOptions {
    /// Also archived (Trello) and deleted (Taskwarrior) cards.
    public var includeAll = false
    /// The reader's time zone: a due timestamp becomes the calendar day there.
    public var zone: Zone = .utc
    public var words = ImportWords()
    /// The column a Trello list's name means (`--map`, then names in any shipped language).
    public var listState: (String) -> (TaskState, ListMapping.How) = { _ in (.todo, .unknown) }
    /// A state as a person writes it in a CSV cell (any shipped language); nil: not one.
    public var stateNamed: (String) -> TaskState? = { TaskState(rawValue: $0.lowercased()) }
    /// A priority as a person writes it in a CSV cell (its key, or a word in
    /// any shipped language); `.some(nil)` for none, nil: not one.
    public var priorityNamed: (String) -> Priority?? = { text in
        text.lowercased() == "none" ? .some(nil) : Priority(rawValue: text.lowercased()).map { .some($0) }
    }
    /// A recurring rule in a CSV cell: an RRULE (with its UNTIL), or the
    /// reader's words; nil: not one.
    public var ruleNamed: (String) -> (Recurrence, CivilDate?)? = { Series.rule(fromRRULE: $0) }
    /// A date in a CSV cell, in any form `--due` takes; nil: not one.
    public var parseDate: (String) -> CivilDate? = { CivilDate(iso: $0) }
    /// A deadline in a CSV cell with its time of day (`2026-12-01 15:00
    /// Europe/Paris`, as `pm export csv` writes one); nil: read with ``parseDate``.
    public var parseDeadline: ((String) -> (date: CivilDate, time: DueTime?)?)?
    /// Which of pm's fields a CSV header names (any shipped language); nil: kept in the body.
    public var csvColumn: (String) -> CSVColumn? = { CSVColumn(rawValue: $0.lowercased()) }
    /// Who imports: the author of what the source does not say who wrote (a Taskwarrior annotation).
    public var user = "unknown"

    public init() {}
}

/// The columns of pm's CSV, as `pm export csv` names them, in its order
/// (labels, priority and the recurring rule came last, so that the others
/// kept their places).
public enum CSVColumn: String, CaseIterable, Sendable {
    case id, title, state, due, assignees, body, labels, priority, repeats
}

/// Reads one source's file: bytes in, cards out. Pure.
public protocol BoardImporter {
    static func read(_ bytes: [UInt8], options: ImportOptions) throws -> ImportReading
}

/// The rules every importer shares.
public enum ImportRules {
    /// The largest file read (a Trello board with years of actions is a few MiB).
    public static let byteLimit = 64 << 20
    /// The most cards one import adds.
    public static let cardLimit = 10_000
    /// The most values (JSON values, CSV cells) a file is read into: a real
    /// export of 10,000 cards with their history holds far fewer.
    public static let valueLimit = 2_000_000

    /// The importer for a source.
    public static func importer(_ source: ImportSource) -> BoardImporter.Type {
        switch source {
        case .trello: return TrelloImport.self
        case .taskwarrior: return TaskwarriorImport.self
        case .csv: return CSVImport.self
        }
    }

    /// A card's title as pm keeps it: line breaks and tabs as spaces, spaces
    /// at the ends dropped; cut to pm's limit (the whole title then opens the
    /// body). A control, escape or bidi character refuses the file there.
    /// - Returns: the title and, when cut, the whole title.
    static func title(_ raw: String, at offset: Int) throws -> (String, whole: String?) {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\t" {
                scalars.append(" ")
            } else if TextSafety.isUnsafe(scalar) {
                throw ImportFailure(offset: offset, problem: .unsafeCharacter(scalar))
            } else {
                scalars.append(scalar)
            }
        }
        let title = TaskInput.trimmed(String(scalars))
        guard title.unicodeScalars.contains(where: TaskInput.isVisible) else {
            throw ImportFailure(offset: offset, problem: .emptyTitle)
        }
        guard title.count > TaskInput.titleLimit else { return (title, nil) }
        return (String(title.prefix(TaskInput.titleLimit - 1)) + "…", title)
    }

    /// Text for a body: `\r\n` as `\n`; a control, escape or bidi character
    /// refuses the file there.
    static func bodyText(_ raw: String, at offset: Int) throws -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in raw.unicodeScalars where scalar != "\r" {
            if scalar != "\n" && scalar != "\t" && TextSafety.isUnsafe(scalar) {
                throw ImportFailure(offset: offset, problem: .unsafeCharacter(scalar))
            }
            scalars.append(scalar)
        }
        return String(scalars)
    }

    /// A body made of parts (the description, then labelled extras), blank
    /// lines between them, cut to pm's limit.
    /// - Returns: the body, and whether it was cut.
    static func body(_ parts: [String]) -> (String, cut: Bool) {
        let body = parts.map { trimmedLines($0) }.filter { !$0.isEmpty }.joined(separator: "\n\n")
        guard body.count > TaskInput.bodyLimit else { return (body, false) }
        return (String(body.prefix(TaskInput.bodyLimit - 1)) + "…", true)
    }

    private static func trimmedLines(_ text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.allSatisfy(\.isWhitespace) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy(\.isWhitespace) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Assignee names from a source, as pm keeps them; a name pm could not
    /// keep (a comma, nothing visible) is left to the body by the caller.
    static func names(_ raw: [String]) -> (kept: [String], other: [String]) {
        var kept: [String] = []
        var other: [String] = []
        for name in raw {
            if let valid = try? Assignees.validName(name) {
                if !kept.contains(valid) { kept.append(valid) }
            } else {
                other.append(name)
            }
        }
        return (kept, other)
    }

    /// The calendar day, in `zone`, of a UTC timestamp.
    static func day(ofTimestamp text: String, zone: Zone) -> CivilDate? {
        guard let date = Timestamp.parse(text, zone: .utc), inRange(date) else { return nil }
        return Timestamp.civilDate(of: date, in: zone)
    }

    /// Whether a time is one a deadline or a creation can be: years 1 to 9999.
    static func inRange(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds >= -62_135_596_800 && seconds < 253_402_300_800
    }

    /// When a Trello card was made: the first 8 hex digits of its id are the seconds since 1970.
    static func trelloCreated(_ id: String) -> String? {
        guard id.utf8.count == 24, let seconds = UInt32(id.prefix(8), radix: 16) else { return nil }
        return Timestamp.string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// Whether `id` is one an import made (``taskID(board:source:sourceID:)``:
    /// version 8); pm's own tasks get random ones (version 4).
    public static func isImportedID(_ id: TaskID) -> Bool {
        id.words.high & 0xF000 == 0x8000
    }

    /// A task's id made from the board's and the card's in its source: the
    /// same file imported twice, or by two teammates into one board, gives
    /// the same ids, so it adds nothing the second time. A name-based UUID
    /// (version 8, from SHA-256).
    public static func taskID(board: TaskID, source: ImportSource, sourceID: String) -> TaskID {
        TaskID.named(Array("pm-import\u{0}\(board.rawValue)\u{0}\(source.rawValue)\u{0}\(sourceID)".utf8))
    }
}

extension TaskID {
    /// A name-based UUID (version 8, from SHA-256 of `name`): the same name
    /// gives the same id on every copy.
    public static func named(_ name: [UInt8]) -> TaskID {
        let digest = Signing.sha256(name)
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(digest[index])
            low = low << 8 | UInt64(digest[8 + index])
        }
        high = (high & ~0xF000) | 0x8000  // version 8
        low = (low & ~(0b11 << 62)) | (0b10 << 62)  // RFC 9562 variant
        return TaskID(high: high, low: low)
    }
}
