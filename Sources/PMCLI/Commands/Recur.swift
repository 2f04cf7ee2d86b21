import ArgumentParser
import PMCore
import PMKit
import PMLocalization
import PMViews

/// `pm recur ID RULE` / `pm recur ID --stop`: a task's recurring deadline (DESIGN.md §18).
struct Recur: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "recur", abstract: help(.helpCommandRecur))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpRule), valueName: "rule")) var rule: String?
    @Flag(help: ArgumentHelp(help(.helpStop))) var stop = false
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        guard (rule == nil) == stop else { throw CLIError.recurNeedsRule }
        let parsed = try rule.map { try RecurrenceNames.parseWithEnd($0, localizer: context.localizer) }
        let edited = try context.session.setRecurrence(.typed(id), parsed?.rule, until: parsed?.until)
        if output.json {
            context.output.line(TaskJSON.object(edited.task, today: context.environment.today, now: context.environment.now()))
            return
        }
        context.output.line(context.sentences.edited(edited))
        if let parsed, let series = edited.task.recur {
            let after = series.next(after: edited.task.due, today: context.environment.today)
            context.sayRepeats(parsed.rule, next: after, after: true)
        }
    }
}

extension ProcessContext {
    /// The rule as pm understood it, and the deadline it gives, on standard error.
    func sayRepeats(_ rule: Recurrence, next: CivilDate?, after: Bool = false) {
        let names = RecurrenceNames(localizer: localizer, style: style(color: false))
        output.errorLine(localizer.string(.messageRepeats, .text(names.echo(rule, next: next, after: after))))
    }
}
