import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

struct Redo: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "redo", abstract: help(.helpCommandRedo)) }

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.revertLast(redo: true, json: output.json)
    }
}
