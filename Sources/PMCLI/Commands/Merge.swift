import ArgumentParser
import FoundationEssentials
import Glibc
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync

/// `pm merge FILE...`: folds other copies of this board into it (DESIGN.md §9).
struct Merge: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "merge", abstract: help(.helpCommandMerge))
    }

    @Argument(help: ArgumentHelp(help(.helpMergeFiles))) var files: [String]
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let l = context.localizer
        var budget = OtherCopy.totalBytes
        for file in files {
            let merged = try context.session.merge(file: file, budget: &budget)
            let name = MessageArgument.text(TextSafety.escaped(file))
            context.output.line(l.plural(.mergeDone, count: merged.added, name))
            if merged.skippedLines > 0 {
                context.output.errorLine(
                    l.plural(.mergeSkipped, count: merged.skippedLines, name, .number(merged.firstSkippedLine ?? 0)))
            }
            if merged.stoppedAtLongLine {
                context.output.errorLine(l.string(.syncLongLine, name, .number(EventProblem.lineLimit >> 20)))
            } else if let bytes = merged.cutAfterBytes {
                context.output.errorLine(l.string(.syncCutFile, name, .number(max(1, bytes >> 20))))
            }
        }
    }
}

extension ProcessContext {
    func kindName(_ target: RemoteTarget) -> String {
        switch target {
        case .folder: return localizer.string(.remoteKindFolder)
        case .git: return localizer.string(.remoteKindGit)
        }
    }

    /// Says what a sync did (an offline remote is an error: exit 75, the changes waiting).
    /// - Parameter quietWhenIdle: a sync that moved nothing says nothing
    ///   (`pm sync --watch` after its first: no line every interval).
    func reportSync(_ outcome: BoardSession.SyncOutcome, target: RemoteTarget, quietWhenIdle: Bool = false) {
        let name = TextSafety.escaped(target.description)
        let report = outcome.report
        let shown = { (file: String) in MessageArgument.text(TextSafety.escaped(file)) }
        for (file, count, line) in report.skipped {
            output.errorLine(localizer.plural(.mergeSkipped, count: count, shown(file), .number(line)))
        }
        for file in report.setAside { output.line(localizer.string(.syncSetAside, shown(file))) }
        for (person, count) in report.unsigned { output.errorLine(localizer.plural(.syncUnsigned, count: count, shown(person))) }
        for file in report.farAhead {
            output.errorLine(localizer.string(report.notFiles.contains(file) ? .syncNotAFileMoved : .syncFarAhead, shown(file)))
        }
        for file in report.notFiles where !report.farAhead.contains(file) {
            output.errorLine(localizer.string(.syncNotAFile, shown(file)))
        }
        for file in report.ignored { output.errorLine(localizer.string(.syncIgnoredFile, shown(file))) }
        for file in report.stoppedAtLongLine {
            output.errorLine(localizer.string(.syncLongLine, shown(file), .number(EventProblem.lineLimit >> 20)))
        }
        for (file, bytes) in report.cut {
            output.errorLine(
                bytes == 0
                    ? localizer.string(.syncOverBudget, shown(file), .number(OtherCopy.totalBytes >> 20))
                    : localizer.string(.syncCutFile, shown(file), .number(max(1, bytes >> 20))))
        }
        if !quietWhenIdle || report.received > 0 || report.sent > 0 {
            output.line(localizer.string(.syncDone, .text(name), .number(report.received), .number(report.sent)))
        }
        // After a change of remote, what is passed on from what had been
        // synced with the old one came through it; the rest another way.
        let previous = outcome.previousRemote
        let throughPrevious = previous == nil ? 0 : report.forwardedFromPrevious
        if let previous, throughPrevious > 0 {
            output.line(
                localizer.plural(.syncForwardedFromPrevious, count: throughPrevious, .text(name), shown(previous)))
        }
        if report.forwarded > throughPrevious {
            output.line(localizer.plural(.syncForwarded, count: report.forwarded - throughPrevious, .text(name)))
        }
        if let joined = outcome.joined { output.line(localizer.plural(.syncJoined, count: joined, .text(name))) }
    }
}
