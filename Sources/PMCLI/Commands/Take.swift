import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

/// `pm take ID`: assign yourself.
struct Take: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "take", abstract: help(.helpCommandTake))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.assign(id, adding: [try Assignees.validName(context.environment.user)], json: output.json)
    }
}
