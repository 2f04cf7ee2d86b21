import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync

/// `pm start ID`: to DOING.
struct Start: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "start", abstract: help(.helpCommandStart))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws { try context.move(id, to: .doing, json: output.json) }
}
