import ArgumentParser
import PMCore
import PMLocalization

struct Export: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "export", abstract: help(.helpCommandExport), subcommands: [ExportICS.self, ExportJSON.self])
    }
}

struct ExportICS: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "ics", abstract: help(.helpCommandExportIcs))
    }

    @Option(help: ArgumentHelp(help(.helpOutput))) var output: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let env = context.environment
        let board = try filters.filteredBoard(context)
        // The log gives each event its SEQUENCE and the deleted tasks to withdraw.
        let revisions = CalendarExport.Revisions(events: try context.store().eventLog().readAll().events)
        let text = CalendarExport.ics(
            board.tasks, today: env.today, now: context.now, schedule: context.reminders,
            revisions: revisions, alarmText: { context.localizer.string(.icsAlarm, .text($0)) },
            assigneesText: { context.localizer.string(.icsAssignees, .text($0)) })
        try context.deliver(text, to: output) { file in
            context.localizer.plural(.exportWritten, count: text.ranges(of: "BEGIN:VEVENT").count, file)
        }
    }
}

/// `pm export json`: the whole board for scripts (Resources/export.schema.json).
struct ExportJSON: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "json", abstract: help(.helpCommandExportJson))
    }

    @Option(help: ArgumentHelp(help(.helpOutput))) var output: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let board = try filters.filteredBoard(context)
        let text = BoardExportJSON.document(
            board: board.id, tasks: board.tasks, exportedAt: context.now, today: context.environment.today)
        try context.deliver(text, to: output) { file in
            context.localizer.plural(.exportTasksWritten, count: board.tasks.count, file)
        }
    }
}

extension ProcessContext {
    /// An export's text: on standard output, or written to `output` (never
    /// half a file) and said in the reader's language by `said`.
    func deliver(_ text: String, to output: String?, said: (MessageArgument) -> String) throws {
        guard let output else {
            self.output.write(text)
            return
        }
        try FileExport.write(text, to: output)
        self.output.done = .wroteFile(output)
        self.output.line(said(shown(output)))
    }
}
