import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

/// `pm checkpoint`: board.json rewritten now as the fold of its whole log
/// (every change already rewrites it once the log's tail passes the bound).
struct Checkpoint: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "checkpoint", abstract: help(.helpCommandCheckpoint))
    }

    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let file = context.shown(context.environment.boardPath)
        let l = context.localizer
        switch try context.session.store().checkpoint() {
        case nil: context.output.line(l.string(.checkpointNoBoard, file))
        case 0: context.output.line(l.string(.checkpointCurrent, file))
        case let folded?: context.output.line(l.plural(.checkpointDone, count: folded, file))
        }
    }
}
