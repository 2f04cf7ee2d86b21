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
    @Flag(help: ArgumentHelp(help(.helpImportAllTrello))) var all = false
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        try context.runImport(.trello, arguments, includeAll: all, map: map)
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
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        try context.runImport(.csv, arguments, includeAll: false)
    }
}

extension ProcessContext {
    /// Reads `arguments.file` as `source` says, and adds its cards in one
    /// undo step (or, with `--dry-run`, says what it would add and writes nothing).
    func runImport(_ source: ImportSource, _ arguments: ImportArguments, includeAll: Bool, map: [String] = []) throws {
        let asked = try map.map(parseMapping)
        let bytes = try ImportFile.read(arguments.file)
        var options = importOptions(includeAll: includeAll)
        let names = asked.map { (LooseText.fold($0.name), $0.state) }
        let recognise = options.listState
        options.listState = { name in
            let folded = LooseText.fold(name)
            if let state = names.last(where: { $0.0 == folded })?.1 { return (state, .asked) }
            return recognise(name)
        }
        let reading: ImportReading
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
        for list in reading.lists { output.line(listLine(list)) }
        let file = arguments.file == "-" ? MessageArgument.text(localizer.string(.importStandardInput)) : shown(arguments.file)
        if arguments.dryRun {
            let plan = ImportPlan(reading, source: source, board: try loadBoard())
            for (card, _) in plan.adding {
                output.line(localizer.string(.importWouldAddCard, shown(card.title), columnName(card.state)))
            }
            output.line(localizer.plural(.importWouldAdd, count: plan.adding.count, file))
            report(reading, plan)
            return
        }
        let env = environment
        let moment = env.now()
        let plan = try change(oneStep: true) { board in
            let plan = ImportPlan(reading, source: source, board: board)
            for (index, (card, id)) in plan.adding.enumerated() {
                // Made when the source says (never later than now); else a
                // millisecond apart before now, in the file's order.
                let before = Double(plan.adding.count - index) / 1000
                let made = card.created.flatMap { Timestamp.parse($0, zone: .utc) }.map { min($0, moment) }
                let createdAt = Timestamp.string(from: made ?? moment.addingTimeInterval(-before))
                try board.addImported(card, id: id, createdAt: createdAt, eventID: env.makeID(), by: env.user, at: now)
            }
            return plan
        }
        if plan.adding.isEmpty && plan.alreadyThere == 0 {
            output.line(localizer.string(.importNoCards, file))
        } else if plan.adding.isEmpty {
            output.line(localizer.string(.importNothing, file))
        } else {
            output.line(localizer.plural(.importAdded, count: plan.adding.count, file))
        }
        report(reading, plan)
    }

    /// What was not added, and what was cut, each said once.
    private func report(_ reading: ImportReading, _ plan: ImportPlan) {
        if plan.alreadyThere > 0 { output.line(localizer.plural(.importAlreadyThere, count: plan.alreadyThere)) }
        if reading.leftOut > 0 { output.line(localizer.plural(.importLeftOut, count: reading.leftOut)) }
        if reading.shortened > 0 { output.line(localizer.plural(.importShortened, count: reading.shortened)) }
    }

    private func listLine(_ list: ListMapping) -> String {
        let name = shown(list.name)
        switch list.how {
        case .asked, .named: return localizer.plural(.importList, count: list.cards, name, columnName(list.state))
        case .unknown: return localizer.plural(.importListUnknown, count: list.cards, name, columnName(list.state))
        }
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
