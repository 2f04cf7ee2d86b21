import ArgumentParser
import PMCore
import PMICU
import PMLocalization

/// `pm merge FILE...`: folds other copies of this board into it (DESIGN.md §9).
struct Merge: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(abstract: help(.helpCommandMerge)) }

    @Argument(help: ArgumentHelp(help(.helpMergeFiles))) var files: [String]
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let now = Int64(context.environment.now().timeIntervalSince1970 * 1000)
        for file in files {
            var copy = try OtherCopy.read(file)
            copy.quarantine { EventProblem.check($0, replica: nil, now: now) }
            let added = try context.store().merge(
                copy.events, boardID: copy.boardID, newBoardID: context.environment.makeID(), replica: context.replica)
            if added > 0 { context.output.done = .changedBoard }
            context.output.line(context.localizer.plural(.mergeDone, count: added, .text(TextSafety.escaped(file))))
            if copy.skippedLines > 0 {
                context.output.errorLine(
                    context.localizer.plural(
                        .mergeSkipped, count: copy.skippedLines, .text(TextSafety.escaped(file)),
                        .number(copy.firstSkippedLine ?? 0)))
            }
        }
    }
}
