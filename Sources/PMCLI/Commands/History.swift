import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

struct History: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "history", abstract: help(.helpCommandHistory))
    }

    @Option(help: ArgumentHelp(help(.helpLimit))) var limit: Int = 20
    @Option(help: ArgumentHelp(help(.helpHistoryTask))) var task: String?
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        guard limit > 0 else { throw CLIError.invalidLimit(limit) }
        let events = try context.session.store().recentHistory(limit: limit, task: task)
        if output.json {
            context.output.line(HistoryJSON.array(events))
            return
        }
        guard !events.isEmpty else {
            context.output.line(context.localizer.string(.historyEmpty))
            return
        }
        let view = HistoryView(
            localizer: context.localizer, style: context.style(color: colors.useColor(context)),
            reader: context.environment.user)
        for line in view.lines(events) { context.output.line(line) }
    }
}
