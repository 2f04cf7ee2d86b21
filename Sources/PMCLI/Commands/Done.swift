import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync

/// `pm done ID`: to DONE.
struct Done: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "done", abstract: help(.helpCommandDone)) }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws { try context.move(id, to: .done, json: output.json) }
}
