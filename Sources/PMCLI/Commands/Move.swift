import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

struct Move: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "move", abstract: help(.helpCommandMove)) }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpState))) var state: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.move(id, to: try StateNames.parse(state, localizer: context.localizer), json: output.json)
    }
}

extension ProcessContext {
    /// Moves a task and says so (or that it was already there).
    func move(_ id: String, to target: TaskState, json: Bool) throws {
        let moved = try session.move(.typed(id), to: target)
        output.line(
            json ? TaskJSON.object(moved.after, today: environment.today, now: environment.now()) : sentences.moved(moved))
    }
}
