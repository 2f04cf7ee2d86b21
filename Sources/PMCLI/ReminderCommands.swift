import ArgumentParser
import PMCore
import PMLocalization

struct Remind: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(abstract: help(.helpCommandRemind)) }

    @Flag(help: ArgumentHelp(help(.helpAll))) var all = false
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    /// Prints each reminder due now that this user has not seen, and remembers
    /// it; exits 0 whether or not anything was due, for cron.
    func run(in context: ProcessContext) throws {
        let env = context.environment
        guard let board = try context.store().load() else { return }
        let due = context.reminders.due(board.tasks, now: env.now(), zone: env.timeZone)
        let log = ReminderLog(stateDirectory: env.stateDirectory, boardID: board.id, user: env.user)
        let shown = try log.load()
        let fresh = all ? due : due.filter { !shown.contains(ReminderSchedule.key($0)) }
        if output.json {
            context.output.line(TaskJSON.array(fresh, today: env.today))
        } else {
            let style = context.style(color: colors.useColor(context))
            for task in fresh {
                let date = task.due.map(style.date) ?? ""
                context.output.line(context.localizer.string(.remindLine, context.shown(task.title), .text(date)))
            }
        }
        // Shown first: a reminder is remembered only once it reached the reader.
        try context.output.flush()
        let updated = shown.union(fresh.map(ReminderSchedule.key))
        if updated != shown { try log.save(updated, today: env.today) }
    }
}

struct Export: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(abstract: help(.helpCommandExport), subcommands: [ExportICS.self])
    }
}

struct ExportICS: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "ics", abstract: help(.helpCommandExportIcs))
    }

    @Option(help: ArgumentHelp(help(.helpOutput))) var output: String?
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let env = context.environment
        let board = try context.loadBoard()
        // The log gives each event its SEQUENCE and the deleted tasks to withdraw.
        let revisions = CalendarExport.Revisions(events: try context.store().eventLog().readAll().events)
        let text = CalendarExport.ics(
            board.tasks, today: env.today, now: context.now, schedule: context.reminders,
            revisions: revisions, alarmText: { context.localizer.string(.icsAlarm, .text($0)) })
        guard let output else {
            context.output.write(text)
            return
        }
        try FileExport.write(text, to: output)
        context.output.done = .wroteFile(output)
        let count = text.components(separatedBy: "BEGIN:VEVENT").count - 1
        context.output.line(context.localizer.plural(.exportWritten, count: count, context.shown(output)))
    }
}
