import ArgumentParser
import PMCore
import PMKit
import PMLocalization
import PMSync
import PMViews

struct Remind: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "remind", abstract: help(.helpCommandRemind))
    }

    @Flag(help: ArgumentHelp(help(.helpAll))) var all = false
    @Flag(help: ArgumentHelp(help(.helpNotify))) var notify = false
    @Flag(help: ArgumentHelp(help(.helpEveryone))) var everyone = false
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    /// Prints each reminder due now that this user has not seen, and remembers
    /// it; exits 0 whether or not anything was due, for cron. With `--notify`,
    /// each one pops up on the desktop instead when a notification service
    /// answers, and those of tasks done, deleted or redated since are withdrawn.
    func run(in context: ProcessContext) throws {
        let env = context.environment
        guard let board = try context.session.store().load() else { return }
        // Yours and the unassigned ones; a colleague's are theirs to hear of.
        let tasks = everyone ? board.tasks : context.session.remindable(board.tasks)
        let due = context.reminders.due(tasks, now: env.now(), zone: env.timeZone)
        let log = ReminderLog(stateDirectory: env.stateDirectory, boardID: board.id, user: env.user)
        let before = try log.load()
        var state = before
        let fresh = all ? due : due.filter { !state.shown.contains(ReminderSchedule.key($0)) }
        let notifier = notify ? DesktopNotifier(environment: ProcessContext.variables) : nil
        if let notifier { DesktopReminders.withdrawStale(&state, tasks: tasks, notifier: notifier) }
        if output.json {
            context.output.line(TaskJSON.array(fresh, today: env.today, now: env.now()))
        } else {
            show(fresh, notifier: notifier, state: &state, context)
        }
        // Shown first: a reminder is remembered only once it reached the reader.
        try context.output.flush()
        state.shown.formUnion(fresh.map(ReminderSchedule.key))
        if state != before { try log.save(state, today: env.today) }
    }

    /// Each reminder on the desktop (remembering its notification), or
    /// printed when no notification service answers.
    private func show(
        _ fresh: [BoardTask], notifier: DesktopNotifier?, state: inout ReminderLog.State, _ context: ProcessContext
    ) {
        let style = context.style(color: colors.useColor(context))
        let plain = context.style(color: false)
        var desktop = notifier
        for task in fresh {
            let line = { (style: TextStyle) in Sentences(localizer: context.localizer, style: style).reminder(task) }
            let key = ReminderSchedule.key(task)
            if let notifier = desktop {
                let summary = context.localizer.string(.icsAlarm, context.shown(task.title))
                if let id = notifier.notify(summary: summary, body: line(plain)) {
                    if let earlier = state.notified[key] { notifier.close(earlier) }
                    state.notified[key] = id
                    continue
                }
                // No service answered: the rest are printed, without waiting again.
                desktop = nil
            }
            context.output.line(line(style))
        }
    }
}

/// The desktop notifications `pm remind --notify` left up, withdrawn once
/// their task is no longer due that day.
enum DesktopReminders {
    /// Closes the notifications whose task was done, deleted or given another
    /// deadline, and forgets them once closed.
    static func withdrawStale(_ state: inout ReminderLog.State, tasks: [BoardTask], notifier: DesktopNotifier) {
        guard !state.notified.isEmpty else { return }
        let current = Set(tasks.filter { $0.state != .done && $0.due != nil }.map(ReminderSchedule.key))
        // One that could not be reached is kept, and withdrawn by a later run.
        for (key, id) in state.notified where !current.contains(key) && notifier.close(id) {
            state.notified[key] = nil
        }
    }

    /// After a change to the board: withdraws what it made stale. Best effort,
    /// never failing the change (a notification left up is not worth an error).
    static func afterChange(_ board: Board, session: BoardSession) {
        let env = session.environment
        let log = ReminderLog(stateDirectory: env.stateDirectory, boardID: board.id, user: env.user)
        guard var state = try? log.load(), !state.notified.isEmpty else { return }
        let before = state
        // A task given to a colleague since is no longer this reader's to be reminded of.
        withdrawStale(
            &state, tasks: session.remindable(board.tasks), notifier: DesktopNotifier(environment: ProcessContext.variables))
        if state != before { try? log.save(state, today: env.today) }
    }
}
