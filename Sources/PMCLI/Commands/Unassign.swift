import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

/// `pm unassign ID NAME...`.
struct Unassign: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "unassign", abstract: help(.helpCommandUnassign))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpNames), valueName: "name")) var names: [String]
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.assign(id, removing: try names.flatMap { try Assignees.names($0, existing: true) }, json: output.json)
    }
}
