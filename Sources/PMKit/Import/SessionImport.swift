import FoundationEssentials
import PMCore

/// What an import is asked to do (`pm import trello FILE --map … --member …`).
public struct ImportRequest {
    public var source: ImportSource
    /// The file as the person named it (`-`: standard input).
    public var file: String
    /// How to read it: the reader's words, zone and date forms.
    public var options: ImportOptions
    /// `--map LIST=STATE`: a list's cards go to that column.
    public var mappings: [(name: String, state: TaskState)] = []
    /// `--member NAME=TEAMMATE`: a person of the file gets the board's name.
    public var renames: [(from: String, to: String)] = []
    /// Say what would be added; write nothing.
    public var dryRun = false

    public init(source: ImportSource, file: String, options: ImportOptions) {
        self.source = source
        self.file = file
        self.options = options
    }
}

/// What an import read, planned and (unless a dry run) added in one undo step.
public struct ImportOutcome: Sendable {
    public var reading: ImportReading
    public var plan: ImportPlan
    /// Each `--member`'s name on the board, to the file's name it replaced.
    public var mapped: [String: String]
    /// The names on the board before the import.
    public var known: Set<String>
}

extension BoardSession {
    /// Reads `request.file` as its source says and adds its cards in one
    /// undo step (or, for a dry run, plans what it would add and writes nothing).
    /// - Throws: ``PMError/importRefused(path:line:column:problem:)`` for a
    ///   file that is not what it claims; ``SessionError`` for a `--map` or
    ///   `--member` naming something the file does not have (nothing is imported).
    public func importFile(_ request: ImportRequest) throws -> ImportOutcome {
        let bytes = try ImportFile.read(request.file, standardInput: settings.standardInput)
        var options = request.options
        options.user = environment.user
        let names = request.mappings.map { (LooseText.fold($0.name), $0.state) }
        let recognise = options.listState
        options.listState = { name in
            let folded = LooseText.fold(name)
            if let state = names.last(where: { $0.0 == folded })?.1 { return (state, .asked) }
            return recognise(name)
        }
        var reading: ImportReading
        do {
            reading = try ImportRules.importer(request.source).read(bytes, options: options)
        } catch let failure as ImportFailure {
            let (line, column) = failure.position(in: bytes)
            throw PMError.importRefused(path: request.file, line: line, column: column, problem: failure.problem)
        }
        // A --map for a list the file does not have is a typo: nothing is imported.
        for mapping in request.mappings
        where !reading.lists.contains(where: { LooseText.fold($0.name) == LooseText.fold(mapping.name) }) {
            throw SessionError.importNoSuchList(name: mapping.name, file: request.file, lists: reading.lists.map(\.name))
        }
        let mapped = try Self.rename(&reading, request.renames, file: request.file)
        if request.dryRun {
            let board = try loadBoard()
            return ImportOutcome(
                reading: reading, plan: ImportPlan(reading, source: request.source, board: board), mapped: mapped,
                known: Self.peopleNames(on: board))
        }
        let env = environment
        let moment = env.now()
        let (plan, known) = try change(oneStep: true) { board in
            let known = Self.peopleNames(on: board)
            let plan = ImportPlan(reading, source: request.source, board: board)
            for (index, (card, id)) in plan.adding.enumerated() {
                // Made when the source says (never later than now); else a
                // millisecond apart before now, in the file's order.
                let before = Double(plan.adding.count - index) / 1000
                let made = card.created.flatMap { Timestamp.parse($0, zone: .utc) }.map { min($0, moment) }
                let createdAt = Timestamp.string(from: made ?? moment.addingTimeInterval(-before))
                try board.addImported(card, id: id, createdAt: createdAt, eventID: env.makeID(), by: env.user, at: now)
            }
            return (plan, known)
        }
        return ImportOutcome(reading: reading, plan: plan, mapped: mapped, known: known)
    }

    /// Every name a task of `board` is assigned to or has a comment by.
    private static func peopleNames(on board: Board) -> Set<String> {
        Set(board.tasks.flatMap { $0.assignees + $0.allComments.map(\.by) })
    }

    /// Gives the cards' people (assignees and comment authors) the names `--member` asks for.
    /// - Returns: each new name, to the file's name it replaced.
    /// - Throws: ``SessionError``, when a --member names someone on no card of the file.
    private static func rename(_ reading: inout ImportReading, _ renames: [(from: String, to: String)], file: String) throws
        -> [String: String]
    {
        guard !renames.isEmpty else { return [:] }
        var inFile: [String] = []
        for card in reading.cards {
            for name in card.assignees + card.parts.comments.map(\.by) where !inFile.contains(name) { inFile.append(name) }
        }
        for rename in renames where !inFile.contains(where: { LooseText.fold($0) == LooseText.fold(rename.from) }) {
            throw SessionError.importNoSuchMember(name: rename.from, file: file, members: inFile)
        }
        var mapped: [String: String] = [:]
        for index in reading.cards.indices {
            var names: [String] = []
            for name in reading.cards[index].assignees {
                let folded = LooseText.fold(name)
                let given = renames.last { LooseText.fold($0.from) == folded }?.to
                if let given { mapped[given] = mapped[given] ?? name }
                let kept = given ?? name
                if !names.contains(kept) { names.append(kept) }
            }
            reading.cards[index].assignees = names
            for (place, comment) in reading.cards[index].parts.comments.enumerated() {
                let folded = LooseText.fold(comment.by)
                if let given = renames.last(where: { LooseText.fold($0.from) == folded })?.to {
                    mapped[given] = mapped[given] ?? comment.by
                    reading.cards[index].parts.comments[place].by = given
                }
            }
        }
        return mapped
    }
}
