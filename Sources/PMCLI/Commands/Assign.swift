import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

/// `pm assign ID NAME...`: who does a card (DESIGN.md §13).
struct Assign: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "assign", abstract: help(.helpCommandAssign))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpNames), valueName: "name")) var names: [String]
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.assign(id, adding: try names.flatMap { try Assignees.names($0) }, json: output.json)
    }
}

extension ProcessContext {
    /// Assigns or unassigns and says what it did (or that nothing changed).
    func assign(_ id: String, adding: [String] = [], removing: [String] = [], json: Bool) throws {
        let edited = try session.assign(.typed(id), adding: adding, removing: removing)
        output.line(
            json ? TaskJSON.object(edited.task, today: environment.today, now: environment.now()) : sentences.edited(edited))
        for line in sentences.lookalikes(edited.lookalikes) { output.errorLine(line) }
    }
}
