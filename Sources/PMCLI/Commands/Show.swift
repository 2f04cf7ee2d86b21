import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync

struct Show: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: help(.helpCommandShow)) }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        let today = context.environment.today
        // Only the task shown is decoded (through the board's index).
        let lines = try context.session.store().withFewTasks { board in
            let task = try TaskLookup.find(id, in: board ?? context.session.emptyBoard())
            if output.json { return [TaskJSON.object(task, today: today, now: context.environment.now())] }
            var view = TaskView(localizer: context.localizer, style: context.style(color: colors.useColor(context)), today: today)
            view.now = context.environment.now()
            return view.render(task)
        }
        for line in lines { context.output.line(line) }
    }
}
