import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

struct Edit: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "edit", abstract: help(.helpCommandEdit)) }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Option(help: ArgumentHelp(help(.helpTitle))) var title: String?
    @Option(help: ArgumentHelp(help(.helpBody))) var body: String?
    @Option(help: ArgumentHelp(help(.helpDue))) var due: String?
    @Flag(name: .customLong("no-due"), help: ArgumentHelp(help(.helpNoDue))) var noDue = false
    @Option(help: ArgumentHelp(help(.helpPriority), valueName: "priority")) var priority: String?
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        if due != nil && noDue { throw CLIError.dueAndNoDue }
        if title == nil && body == nil && due == nil && !noDue && priority == nil { throw CLIError.nothingToEdit }
        var change = Board.Edit(title: title, body: body)
        if let priority { change.priority = .some(try PriorityNames.parse(priority, localizer: context.localizer)) }
        if noDue { change.due = .some(nil) }
        if let due {
            var deadline = try context.parseDeadline(due)
            // A time alone (`--due 15:00`) keeps the card's day.
            if deadline.day.isEmpty, deadline.time != nil, let day = try currentDay(context) {
                deadline = try context.parseDeadline(day.description + " " + due)
            }
            (change.due, change.dueTime) = (.some(deadline.date), deadline.time)
        }
        let edited = try context.session.edit(.typed(id), change)
        context.output.line(
            output.json
                ? TaskJSON.object(edited.task, today: context.environment.today, now: context.environment.now())
                : context.sentences.edited(edited))
    }

    /// The card's deadline day now, if it has one.
    private func currentDay(_ context: ProcessContext) throws -> CivilDate? {
        try context.session.store().withFewTasks { board in
            try TaskLookup.find(id, in: board ?? context.session.emptyBoard()).due
        }
    }
}
