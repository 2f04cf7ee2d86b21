import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync

/// The root command.
public struct PM: ParsableCommand {
    /// What `pm --version` prints.
    static let version = PMVersion.string

    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "pm",
            abstract: help(.helpCommandRoot),
            version: version,
            subcommands: [
                Add.self, List.self, Show.self, Edit.self, Move.self, Delete.self, History.self, Undo.self, Redo.self,
                Start.self, Done.self, Assign.self, Unassign.self, Take.self, News.self, BoardCommand.self, Merge.self, Sync.self,
                Remote.self, Status.self, Remind.self,
                Checkpoint.self,
                Import.self, Export.self, Completion.self, L10n.self, Complete.self, Generate.self,
            ]
        )
    }

    public init() {}
}

/// Helpers every command uses.
extension ProcessContext {
    var now: String { Timestamp.string(from: environment.now()) }

    func style(color: Bool) -> TextStyle {
        TextStyle(color: color, formatLocale: formatLocale, zone: environment.timeZone)
    }

    /// The lines an error is said with (without `pm: error:`), in the reader's language.
    func describe(_ error: Error) -> [String] {
        ErrorReport.describe(
            error, localizer: localizer, when: style(color: false).momentInSentence, formatLocale: formatLocale,
            reader: environment.user
        ).lines
    }

    /// The sentences a change is said with, in the reader's language.
    var sentences: Sentences { Sentences(localizer: localizer, style: style(color: false)) }

    /// A deadline as typed: ISO, today/tomorrow/+Nd/+Nw, the locale's short
    /// numeric date with or without the year, or the words of the reader's
    /// language (DESIGN.md §3; English's built-in forms work everywhere).
    func parseDate(_ text: String) throws -> CivilDate {
        try DateInput.parse(
            text, today: environment.today, words: DateWordTable.words(localizer: localizer, formatLocale: formatLocale),
            localFormat: LocalDateFormat(locale: formatLocale))
    }

    /// A title as printed in a sentence: escaped, never raw.
    /// The day pm chose for a date typed in a form that reads two ways
    /// (`vendredi prochain`, `1/3`), on standard error (standard output is
    /// the new task's id): `Read 'next friday' as Friday, December 4, 2026.`
    func sayDayChosen(_ typed: String, _ date: CivilDate) {
        let words = DateWordTable.words(localizer: localizer, formatLocale: formatLocale)
        guard !DateInput.readsOneWay(typed, words: words) else { return }
        output.errorLine(localizer.string(.messageDayChosen, shown(typed), .text(style(color: false).dateWithWeekday(date))))
    }

    func shown(_ text: String) -> MessageArgument { .text(TextSafety.escaped(text)) }

    func columnName(_ state: TaskState) -> MessageArgument { .text(localizer.string(StateNames.key(state))) }
}

struct Add: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: help(.helpCommandAdd)) }

    @Argument(help: ArgumentHelp(help(.helpTitle))) var title: String
    @Option(help: ArgumentHelp(help(.helpBody))) var body: String = ""
    @Option(help: ArgumentHelp(help(.helpDue))) var due: String?
    @Option(help: ArgumentHelp(help(.helpTo), valueName: "name")) var to: [String] = []
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let deadline = try due.map { try context.parseDate($0) }
        let added = try context.session.add(
            title: title, body: body, due: deadline, assignees: try to.flatMap { try Assignees.names($0) })
        context.output.line(output.json ? TaskJSON.object(added.task, today: context.environment.today) : added.shortID)
        for line in context.sentences.lookalikes(added.lookalikes) { context.output.errorLine(line) }
        if let due, let deadline { context.sayDayChosen(due, deadline) }
    }
}

struct Show: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: help(.helpCommandShow)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        let today = context.environment.today
        // Only the task shown is decoded (through the board's index).
        let lines = try context.session.store().withFewTasks { board in
            let task = try TaskLookup.find(id, in: board ?? context.session.emptyBoard())
            if output.json { return [TaskJSON.object(task, today: today)] }
            let view = TaskView(localizer: context.localizer, style: context.style(color: colors.useColor(context)), today: today)
            return view.render(task)
        }
        for line in lines { context.output.line(line) }
    }
}

struct Edit: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "edit", abstract: help(.helpCommandEdit)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @Option(help: ArgumentHelp(help(.helpTitle))) var title: String?
    @Option(help: ArgumentHelp(help(.helpBody))) var body: String?
    @Option(help: ArgumentHelp(help(.helpDue))) var due: String?
    @Flag(name: .customLong("no-due"), help: ArgumentHelp(help(.helpNoDue))) var noDue = false
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        if due != nil && noDue { throw CLIError.dueAndNoDue }
        if title == nil && body == nil && due == nil && !noDue { throw CLIError.nothingToEdit }
        var change = Board.Edit(title: title, body: body)
        if noDue { change.due = .some(nil) }
        if let due { change.due = .some(try context.parseDate(due)) }
        let edited = try context.session.edit(.typed(id), change)
        context.output.line(
            output.json ? TaskJSON.object(edited.task, today: context.environment.today) : context.sentences.edited(edited))
    }
}

struct Move: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "move", abstract: help(.helpCommandMove)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @Argument(help: ArgumentHelp(help(.helpState))) var state: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.move(id, to: try StateNames.parse(state, localizer: context.localizer), json: output.json)
    }
}

/// `pm start ID`: to DOING.
struct Start: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "start", abstract: help(.helpCommandStart))
    }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws { try context.move(id, to: .doing, json: output.json) }
}

/// `pm done ID`: to DONE.
struct Done: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "done", abstract: help(.helpCommandDone)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws { try context.move(id, to: .done, json: output.json) }
}

extension ProcessContext {
    /// Moves a task and says so (or that it was already there).
    func move(_ id: String, to target: TaskState, json: Bool) throws {
        let moved = try session.move(.typed(id), to: target)
        output.line(json ? TaskJSON.object(moved.after, today: environment.today) : sentences.moved(moved))
    }
}

struct Delete: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "delete", abstract: help(.helpCommandDelete), aliases: ["rm"])
    }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let task = try context.session.delete(.typed(id))
        context.output.line(
            output.json ? TaskJSON.object(task, today: context.environment.today) : context.sentences.deleted(task))
    }
}
