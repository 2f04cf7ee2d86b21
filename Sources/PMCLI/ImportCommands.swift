import ArgumentParser
import PMCore
import PMICU
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

struct Import: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "import", abstract: help(.helpCommandImport),
            subcommands: [ImportTrello.self, ImportTaskwarrior.self, ImportCSV.self])
    }
}

/// What every import takes.
struct ImportArguments: ParsableArguments {
    @Argument(help: ArgumentHelp(help(.helpImportFile), valueName: "file")) var file: String
    @Flag(name: .customLong("dry-run"), help: ArgumentHelp(help(.helpDryRun))) var dryRun = false
}

struct ImportTrello: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "trello", abstract: help(.helpCommandImportTrello))
    }

    @OptionGroup var arguments: ImportArguments
    @Option(name: .customLong("map"), help: ArgumentHelp(help(.helpImportMap), valueName: "mapping"))
    var map: [String] = []
    @Option(name: .customLong("member"), help: ArgumentHelp(help(.helpImportMember), valueName: "member"))
    var member: [String] = []
    @Flag(help: ArgumentHelp(help(.helpImportAllTrello))) var all = false
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        try context.runImport(.trello, arguments, includeAll: all, map: map, members: member)
    }
}

struct ImportTaskwarrior: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "taskwarrior", abstract: help(.helpCommandImportTaskwarrior))
    }

    @OptionGroup var arguments: ImportArguments
    @Flag(help: ArgumentHelp(help(.helpImportAllTaskwarrior))) var all = false
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        try context.runImport(.taskwarrior, arguments, includeAll: all)
    }
}

struct ImportCSV: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "csv", abstract: help(.helpCommandImportCsv))
    }

    @OptionGroup var arguments: ImportArguments
    @Option(name: .customLong("member"), help: ArgumentHelp(help(.helpImportMember), valueName: "member"))
    var member: [String] = []
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        try context.runImport(.csv, arguments, includeAll: false, members: member)
    }
}

extension ProcessContext {
    /// Reads `arguments.file` as `source` says, and adds its cards in one
    /// undo step (or, with `--dry-run`, says what it would add and writes nothing).
    func runImport(
        _ source: ImportSource, _ arguments: ImportArguments, includeAll: Bool, map: [String] = [], members: [String] = []
    ) throws {
        let asked = try map.map(parseMapping)
        let renames = try members.map(parseMember)
        let bytes = try ImportFile.read(arguments.file)
        var options = importOptions(includeAll: includeAll)
        let names = asked.map { (LooseText.fold($0.name), $0.state) }
        let recognise = options.listState
        options.listState = { name in
            let folded = LooseText.fold(name)
            if let state = names.last(where: { $0.0 == folded })?.1 { return (state, .asked) }
            return recognise(name)
        }
        var reading: ImportReading
        do {
            reading = try ImportRules.importer(source).read(bytes, options: options)
        } catch let failure as ImportFailure {
            let (line, column) = failure.position(in: bytes)
            throw PMError.importRefused(path: arguments.file, line: line, column: column, problem: failure.problem)
        }
        // A --map for a list the file does not have is a typo: nothing is imported.
        for mapping in asked where !reading.lists.contains(where: { LooseText.fold($0.name) == LooseText.fold(mapping.name) }) {
            throw CLIError.message(
                localizer.string(
                    .errorImportNoSuchList, shown(mapping.name), shown(arguments.file),
                    .text(reading.lists.map { localizer.string(.importListName, shown($0.name)) }.joined(separator: ", "))),
                .usage)
        }
        let mapped = try rename(&reading, renames, file: arguments.file)
        // An archived list whose cards stay out (no --all) is not the reader's concern.
        for list in reading.lists where !list.archived || list.cards > 0 { output.line(listLine(list)) }
        let file = arguments.file == "-" ? MessageArgument.text(localizer.string(.importStandardInput)) : shown(arguments.file)
        if arguments.dryRun {
            let board = try loadBoard()
            let plan = ImportPlan(reading, source: source, board: board)
            for (card, _) in plan.adding {
                output.line(localizer.string(.importWouldAddCard, shown(card.title), columnName(card.state)))
            }
            output.line(localizer.plural(.importWouldAdd, count: plan.adding.count, file))
            report(source, reading, plan)
            reportPeople(plan, mapped: mapped, known: assigneeNames(on: board), done: false)
            return
        }
        let env = environment
        let moment = env.now()
        let (plan, known) = try change(oneStep: true) { board in
            let known = assigneeNames(on: board)
            let plan = ImportPlan(reading, source: source, board: board)
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
        // Each source in its own words: Trello's cards, Taskwarrior's tasks, a sheet's rows.
        let words = ImportSourceWords(source)
        if plan.adding.isEmpty && plan.alreadyThere == 0 {
            output.line(localizer.string(words.none, file))
        } else if plan.adding.isEmpty {
            output.line(localizer.string(words.nothing, file))
        } else {
            output.line(localizer.plural(.importAdded, count: plan.adding.count, file))
        }
        report(source, reading, plan)
        reportPeople(plan, mapped: mapped, known: known, done: true)
    }

    /// What was not added, what was cut, and what went in the bodies, each said once.
    private func report(_ source: ImportSource, _ reading: ImportReading, _ plan: ImportPlan) {
        let words = ImportSourceWords(source)
        if plan.alreadyThere > 0 { output.line(localizer.plural(words.alreadyThere, count: plan.alreadyThere)) }
        if reading.leftOut > 0 { output.line(localizer.plural(words.leftOut, count: reading.leftOut)) }
        if reading.shortened > 0 { output.line(localizer.plural(words.shortened, count: reading.shortened)) }
        guard !plan.adding.isEmpty else { return }
        if reading.withHeadings > 0 { output.line(localizer.plural(.importInBodies, count: reading.withHeadings)) }
        if reading.withDates > 0 { output.line(localizer.string(.importIsoDates)) }
    }

    /// The names the added tasks are assigned to (a --member's with the
    /// file's beside it), and how to give the ones new to this board the
    /// names the team uses here, so that --mine and --to find them.
    /// - Parameters:
    ///   - mapped: each --member's name on the board, to the file's.
    ///   - known: the names on the board before the import.
    ///   - done: the import was written (not --dry-run): it is undone first.
    private func reportPeople(_ plan: ImportPlan, mapped: [String: String], known: Set<String>, done: Bool) {
        var names: [String] = []
        for (card, _) in plan.adding { for name in card.assignees where !names.contains(name) { names.append(name) } }
        guard !names.isEmpty else { return }
        let listed = names.map { name in
            mapped[name].map { localizer.string(.importPersonMapped, shown(name), shown($0)) } ?? TextSafety.escaped(name)
        }
        output.line(localizer.string(.importPeople, .text(listed.joined(separator: ", "))))
        let new = names.filter { !known.contains($0) && mapped[$0] == nil && $0 != environment.user }
        guard let first = new.first else { return }
        output.line(
            localizer.plural(
                done ? .importNewNamesUndo : .importNewNames, count: new.count,
                .text(new.map { TextSafety.escaped($0) }.joined(separator: ", ")), shown(first)))
    }

    /// Every name a task of `board` is assigned to.
    private func assigneeNames(on board: Board) -> Set<String> {
        Set(board.tasks.flatMap(\.assignees))
    }

    /// Gives the cards' people the names `--member` asks for.
    /// - Returns: each new name, to the file's name it replaced.
    /// - Throws: a usage error, when a --member names someone on no card of the file.
    private func rename(_ reading: inout ImportReading, _ renames: [(from: String, to: String)], file: String) throws
        -> [String: String]
    {
        guard !renames.isEmpty else { return [:] }
        var inFile: [String] = []
        for card in reading.cards { for name in card.assignees where !inFile.contains(name) { inFile.append(name) } }
        for rename in renames where !inFile.contains(where: { LooseText.fold($0) == LooseText.fold(rename.from) }) {
            let shownFile = file == "-" ? MessageArgument.text(localizer.string(.importStandardInput)) : shown(file)
            if inFile.isEmpty {
                throw CLIError.message(localizer.string(.errorImportNoMembers, shown(rename.from), shownFile), .usage)
            }
            throw CLIError.message(
                localizer.string(
                    .errorImportNoSuchMember, shown(rename.from), shownFile,
                    .text(inFile.map { localizer.string(.importListName, shown($0)) }.joined(separator: ", "))),
                .usage)
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
        }
        return mapped
    }

    private func listLine(_ list: ListMapping) -> String {
        let name = shown(list.name)
        switch list.how {
        case .asked, .named: return localizer.plural(.importList, count: list.cards, name, columnName(list.state))
        case .unknown: return localizer.plural(.importListUnknown, count: list.cards, name, columnName(list.state))
        }
    }

    /// `NAME=TEAMMATE` as `--member` takes it: the file's name (up to the
    /// first `=`), and a name pm keeps.
    private func parseMember(_ text: String) throws -> (from: String, to: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex, equals != text.index(before: text.endIndex)
        else { throw CLIError.message(localizer.string(.errorImportMember, shown(text)), .usage) }
        return (String(text[..<equals]), try Assignees.validName(String(text[text.index(after: equals)...])))
    }

    /// `LIST=STATE` as `--map` takes it.
    private func parseMapping(_ text: String) throws -> (name: String, state: TaskState) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
            throw CLIError.message(localizer.string(.errorImportMap, shown(text)), .usage)
        }
        let state = try StateNames.parse(String(text[text.index(after: equals)...]), localizer: localizer)
        return (String(text[..<equals]), state)
    }

    /// The reader's language, time zone and date forms, for an import.
    func importOptions(includeAll: Bool) -> ImportOptions {
        var options = ImportOptions()
        options.includeAll = includeAll
        options.zone = environment.timeZone
        let l = localizer
        options.words.labels = l.string(.importWordLabels)
        options.words.checklist = l.string(.importWordChecklist)
        options.words.comments = l.string(.importWordComments)
        options.words.priority = l.string(.importWordPriority)
        options.words.tags = l.string(.importWordTags)
        options.words.project = l.string(.importWordProject)
        options.words.members = l.string(.importWordMembers)
        options.words.link = l.string(.importWordLink)
        options.words.fullTitle = l.string(.importWordFullTitle)
        options.words.started = l.string(.importWordStarted)
        options.words.separator = l.string(.importWordSeparator)
        let listWords: [(TaskState, L10nKey)] = [(.todo, .importListTodo), (.doing, .importListDoing), (.done, .importListDone)]
        var known: [String: TaskState] = [:]
        for source in [l] + LooseText.shippedLocalizers {
            for (state, key) in listWords {
                for word in source.string(key).split(separator: "|") where known[LooseText.fold(String(word))] == nil {
                    known[LooseText.fold(String(word))] = state
                }
                if known[LooseText.fold(source.string(StateNames.key(state)))] == nil {
                    known[LooseText.fold(source.string(StateNames.key(state)))] = state
                }
            }
        }
        options.listState = { name in
            if let state = known[LooseText.fold(name)] ?? TaskState(rawValue: LooseText.fold(name)) { return (state, .named) }
            return (.todo, .unknown)
        }
        options.stateNamed = { try? StateNames.parse($0, localizer: l) }
        options.parseDate = { try? self.parseDate($0) }
        let columnWords: [(CSVColumn, L10nKey)] = [
            (.id, .csvColumnID), (.title, .csvColumnTitle), (.state, .csvColumnState), (.due, .csvColumnDue),
            (.assignees, .csvColumnAssignees), (.body, .csvColumnBody),
        ]
        var columns: [String: CSVColumn] = [:]
        for column in CSVColumn.allCases { columns[column.rawValue] = column }
        for source in [l] + LooseText.shippedLocalizers {
            for (column, key) in columnWords {
                for word in source.string(key).split(separator: "|") where columns[LooseText.fold(String(word))] == nil {
                    columns[LooseText.fold(String(word))] = column
                }
            }
        }
        options.csvColumn = { columns[LooseText.fold($0)] }
        return options
    }
}

/// The words each source's messages use: Trello's cards, Taskwarrior's
/// tasks, a sheet's rows.
struct ImportSourceWords {
    let alreadyThere: L10nPluralKey
    let leftOut: L10nPluralKey
    let shortened: L10nPluralKey
    let nothing: L10nKey
    let none: L10nKey

    init(_ source: ImportSource) {
        switch source {
        case .trello:
            (alreadyThere, leftOut, shortened) = (.importAlreadyThere, .importLeftOut, .importShortened)
            (nothing, none) = (.importNothing, .importNoCards)
        case .taskwarrior:
            (alreadyThere, leftOut, shortened) = (.importAlreadyThereTasks, .importLeftOutDeleted, .importShortenedTasks)
            (nothing, none) = (.importNothingTasks, .importNoTasks)
        case .csv:
            // A sheet has nothing archived or deleted (leftOut stays 0).
            (alreadyThere, leftOut, shortened) = (.importAlreadyThereRows, .importLeftOut, .importShortenedRows)
            (nothing, none) = (.importNothingRows, .importNoRows)
        }
    }
}

/// The file an import reads: a path, or `-` for standard input
/// (`task export | pm import taskwarrior -`); at most ``ImportRules/byteLimit`` bytes.
enum ImportFile {
    static func read(_ path: String) throws -> [UInt8] {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw PMError.readFailed(path: path, SystemCallError(call: "open", code: errno)) }
        defer { if descriptor != 0 { _ = close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw PMError.readFailed(path: path, SystemCallError(call: "fstat", code: errno))
        }
        // A file, or a pipe (`-`, `<(task export)`); never a directory or a device.
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFIFO, S_IFSOCK: break
        case S_IFDIR: throw PMError.readFailed(path: path, SystemCallError(call: "open", code: EISDIR))
        default: throw PMError.importRefused(path: path, line: nil, column: nil, problem: .notAFile)
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= ImportRules.byteLimit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw PMError.readFailed(path: path, SystemCallError(call: "read", code: errno))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
        throw PMError.importRefused(
            path: path, line: nil, column: nil, problem: .tooLarge(ImportRules.byteLimit))
    }

}
