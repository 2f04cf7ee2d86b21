import ArgumentParser
import PMCore
import PMKit
import PMLocalization

/// `pm label ID LABEL...`: a card's labels (DESIGN.md §17).
struct Label: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "label", abstract: help(.helpCommandLabel))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpLabels), valueName: "label")) var labels: [String]
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let names = try labels.flatMap { try Labels.names($0) }
        try context.changeCard(id, .labels(adding: names, removing: []), json: output.json)
    }
}

/// `pm unlabel ID LABEL...`.
struct Unlabel: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "unlabel", abstract: help(.helpCommandUnlabel))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpLabels), valueName: "label")) var labels: [String]
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let names = try labels.flatMap { try Labels.names($0, existing: true) }
        try context.changeCard(id, .labels(adding: [], removing: names), json: output.json)
    }
}

extension ProcessContext {
    /// Changes a card's labels, priority, checklist or comments and says
    /// what it did (or that nothing changed).
    func changeCard(_ id: String, _ change: CardChange, json: Bool) throws {
        let edited = try session.change(.typed(id), change)
        output.line(
            json ? TaskJSON.object(edited.task, today: environment.today, now: environment.now()) : sentences.edited(edited))
    }
}
