import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

struct Undo: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "undo", abstract: help(.helpCommandUndo)) }

    @Flag(help: ArgumentHelp(help(.helpSkip))) var skip = false
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        guard skip else {
            try context.revertLast(redo: false, json: output.json)
            return
        }
        let events = try context.session.skipUndo()
        if output.json {
            context.output.line(HistoryJSON.array(events))
        } else if let sentence = context.sentences.skipped(events) {
            context.output.line(sentence)
        }
    }
}

extension ProcessContext {
    /// Undoes (or redoes) and says what it did, as a history sentence or as JSON.
    func revertLast(redo: Bool, json: Bool) throws {
        let events = try redo ? session.redo() : session.undo()
        output.line(json ? HistoryJSON.array(events) : sentences.reverted(events, redo: redo))
    }
}
