import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

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
        var request = ImportRequest(source: source, file: arguments.file, options: importOptions(includeAll: includeAll))
        request.mappings = try map.map(parseMapping)
        request.renames = try members.map(parseMember)
        request.dryRun = arguments.dryRun
        let outcome = try session.importFile(request)
        let (reading, plan) = (outcome.reading, outcome.plan)
        // An archived list whose cards stay out (no --all) is not the reader's concern.
        for list in reading.lists where !list.archived || list.cards > 0 { output.line(listLine(list)) }
        let file = arguments.file == "-" ? MessageArgument.text(localizer.string(.importStandardInput)) : shown(arguments.file)
        if arguments.dryRun {
            for (card, _) in plan.adding {
                output.line(localizer.string(.importWouldAddCard, shown(card.title), columnName(card.state)))
            }
            output.line(localizer.plural(.importWouldAdd, count: plan.adding.count, file))
        } else {
            // Each source in its own words: Trello's cards, Taskwarrior's tasks, a sheet's rows.
            let words = ImportSourceWords(source)
            if plan.adding.isEmpty && plan.alreadyThere == 0 {
                output.line(localizer.string(words.none, file))
            } else if plan.adding.isEmpty {
                output.line(localizer.string(words.nothing, file))
            } else {
                output.line(localizer.plural(.importAdded, count: plan.adding.count, file))
            }
        }
        report(source, reading, plan)
        reportPeople(plan, mapped: outcome.mapped, known: outcome.known, done: !arguments.dryRun)
    }

    /// What was not added, what was cut, and what went in the bodies, each said once.
    private func report(_ source: ImportSource, _ reading: ImportReading, _ plan: ImportPlan) {
        let words = ImportSourceWords(source)
        if plan.alreadyThere > 0 { output.line(localizer.plural(words.alreadyThere, count: plan.alreadyThere)) }
        if reading.leftOut > 0 { output.line(localizer.plural(words.leftOut, count: reading.leftOut)) }
        if reading.shortened > 0 { output.line(localizer.plural(words.shortened, count: reading.shortened)) }
        if reading.partsLeftOut > 0 {
            let names = reading.refusedNames.map { localizer.string(.importListName, .text(TextSafety.escaped($0))) }
            output.line(
                localizer.plural(.importNamesLeftOut, count: reading.partsLeftOut, .text(localizer.list(names))))
        }
        guard !plan.adding.isEmpty else { return }
        if reading.withHeadings > 0 { output.line(localizer.plural(.importInBodies, count: reading.withHeadings)) }
        if reading.withDates > 0 { output.line(localizer.string(.importIsoDates)) }
    }

    /// The names the added tasks are assigned to (a --member's with the
    /// file's beside it), and how to give the ones new to this board (their
    /// comments' authors too) the names the team uses here, so that --mine
    /// and --to find them, and an author can rewrite their comments.
    /// - Parameters:
    ///   - mapped: each --member's name on the board, to the file's.
    ///   - known: the names on the board before the import.
    ///   - done: the import was written (not --dry-run): it is undone first.
    private func reportPeople(_ plan: ImportPlan, mapped: [String: String], known: Set<String>, done: Bool) {
        var names: [String] = []
        // Comment authors too: only a comment's author may rewrite it, by the name it carries.
        var authors: [String] = []
        for (card, _) in plan.adding {
            for name in card.assignees where !names.contains(name) { names.append(name) }
            for comment in card.parts.comments where !authors.contains(comment.by) { authors.append(comment.by) }
        }
        if !names.isEmpty {
            let listed = names.map { name in
                mapped[name].map { localizer.string(.importPersonMapped, shown(name), shown($0)) } ?? TextSafety.escaped(name)
            }
            output.line(localizer.string(.importPeople, .text(localizer.list(listed))))
        }
        let people = names + authors.filter { !names.contains($0) }
        let new = people.filter { !known.contains($0) && mapped[$0] == nil && $0 != environment.user }
        guard let first = new.first else { return }
        output.line(
            localizer.plural(
                done ? .importNewNamesUndo : .importNewNames, count: new.count,
                .text(localizer.list(new.map { TextSafety.escaped($0) })), shown(first)))
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
        else { throw CLIError.importMember(text) }
        return (String(text[..<equals]), try Assignees.validName(String(text[text.index(after: equals)...])))
    }

    /// `LIST=STATE` as `--map` takes it.
    private func parseMapping(_ text: String) throws -> (name: String, state: TaskState) {
        guard let equals = text.lastIndex(of: "="), equals != text.startIndex else {
            throw CLIError.importMap(text)
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
        options.words.priority = l.string(.importWordPriority)
        options.words.project = l.string(.importWordProject)
        options.words.members = l.string(.importWordMembers)
        options.words.link = l.string(.importWordLink)
        options.words.fullTitle = l.string(.importWordFullTitle)
        options.words.started = l.string(.importWordStarted)
        options.words.recur = l.string(.importWordRecur)
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
        // `try?` would flatten none (`.some(nil)`) into not a priority (nil).
        options.priorityNamed = { text in
            do { return .some(try PriorityNames.parse(text, localizer: l)) } catch { return nil }
        }
        options.parseDate = { try? self.parseDate($0) }
        options.parseDeadline = { text in (try? self.parseDeadline(text)).map { ($0.date, $0.time) } }
        let ruleWords = RecurrenceNames.words(localizer: l)
        options.ruleNamed = { text in
            (try? RuleInput.parseWithEnd(text, words: ruleWords)).map { ($0.rule, $0.until) }
        }
        let columnWords: [(CSVColumn, L10nKey)] = [
            (.id, .csvColumnID), (.title, .csvColumnTitle), (.state, .csvColumnState), (.due, .csvColumnDue),
            (.assignees, .csvColumnAssignees), (.body, .csvColumnBody), (.labels, .csvColumnLabels),
            (.priority, .csvColumnPriority), (.repeats, .csvColumnRecur),
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
