import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

struct Add: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: help(.helpCommandAdd)) }

    @Argument(help: ArgumentHelp(help(.helpTitle))) var title: String
    @Option(help: ArgumentHelp(help(.helpBody))) var body: String = ""
    @Option(help: ArgumentHelp(help(.helpDue))) var due: String?
    @Option(help: ArgumentHelp(help(.helpTo), valueName: "name")) var to: [String] = []
    @Option(help: ArgumentHelp(help(.helpLabel), valueName: "label")) var label: [String] = []
    @Option(help: ArgumentHelp(help(.helpPriority), valueName: "priority")) var priority: String?
    @Option(help: ArgumentHelp(help(.helpEvery), valueName: "rule")) var every: String?
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let deadline = try due.map { try context.parseDeadline($0) }
        let rule = try every.map { try RecurrenceNames.parseWithEnd($0, localizer: context.localizer) }
        let added = try context.session.add(
            title: title, body: body, due: deadline?.date, dueTime: deadline?.time,
            assignees: try to.flatMap { try Assignees.names($0) },
            labels: try label.flatMap { try Labels.names($0) },
            priority: try priority.flatMap { try PriorityNames.parse($0, localizer: context.localizer) },
            recur: rule?.rule, until: rule?.until)
        context.output.line(
            output.json
                ? TaskJSON.object(added.task, today: context.environment.today, now: context.environment.now()) : added.shortID)
        for line in context.sentences.lookalikes(added.lookalikes) { context.output.errorLine(line) }
        if let deadline, !deadline.day.isEmpty { context.sayDayChosen(deadline.day, deadline.date) }
        if let rule { context.sayRepeats(rule.rule, next: added.task.due) }
    }
}
