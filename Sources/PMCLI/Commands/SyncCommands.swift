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

/// `pm sync [--watch]`.
struct Sync: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "sync", abstract: help(.helpCommandSync)) }

    @Flag(help: ArgumentHelp(help(.helpWatch))) var watch = false
    @Flag(help: ArgumentHelp(help(.helpJoin))) var join = false
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        // A watch that cannot keep its interval does not start (nor sync once).
        if watch { _ = try context.syncInterval() }
        let session = context.session
        let target = try session.requireRemote()
        try session.keyStore().checkSafe()
        try session.mergeConflictedCopies()
        if join || !watch {
            context.reportSync(try session.sync(target, join: join), target: target)
            guard watch else { return }
        }
        try SyncWatch(context: context, target: target).run()
    }
}

/// `pm sync --watch`: syncs after each change here (the log grows) and every
/// interval from the remote, until interrupted; offline is said and waited out.
/// SIGINT and SIGTERM are blocked and waited for between syncs, so an
/// interruption never cuts a sync in half and ends with exit 0.
struct SyncWatch {
    var context: ProcessContext
    var target: RemoteTarget

    func run() throws {
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stops, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &stops, nil) }
        let milliseconds = try context.syncInterval()
        let interval = Double(milliseconds) / 1000
        try banner(milliseconds)
        let logPath = try context.session.store().eventLog().path
        func logSize() -> Int64 { ((try? PosixFileSystem().status(logPath)) ?? nil)?.size ?? -1 }
        var seenSize: Int64 = -2
        let clock = context.session.settings.monotonicSeconds
        var lastSync: Double?
        let setting = try context.session.syncState().load()
        while true {
            if logSize() != seenSize || lastSync.map({ clock() - $0 >= interval }) ?? true {
                // `pm remote remove` under the watch: it ends, as asked.
                guard try context.session.keepRemote(setting) else {
                    context.output.line(context.localizer.string(.remoteNone))
                    return
                }
                do {
                    context.reportSync(
                        try context.session.sync(target), target: target, quietWhenIdle: lastSync != nil)
                } catch let error as SessionError {
                    context.output.errorLine(context.describe(error).joined(separator: "\n"))
                }
                try context.output.flush()
                seenSize = logSize()
                lastSync = clock()
            }
            var wait = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            if sigtimedwait(&stops, nil, &wait) > 0 { return }
        }
    }

    /// `Syncing with 'X' every 30 seconds…`, at once.
    private func banner(_ milliseconds: Int) throws {
        let l = context.localizer
        let often =
            milliseconds == 1000
            ? l.string(.syncEverySecond)
            : milliseconds % 1000 == 0
                ? l.plural(.syncEverySeconds, count: milliseconds / 1000)
                : l.plural(.syncEveryMilliseconds, count: milliseconds)
        context.output.line(l.string(.syncWatching, .text(TextSafety.escaped(target.description)), .text(often)))
        try context.output.flush()
    }
}
/// `pm status`: the board, its counts, where it syncs and whether that answers
/// now, the last sync, changes waiting and unresolved conflicts.
struct Status: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "status", abstract: help(.helpCommandStatus))
    }

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        let status = try context.session.status()
        if output.json {
            context.output.line(json(status, today: context.environment.today).prettyJSON)
        } else {
            render(status, context)
        }
    }

    private func json(_ status: BoardSession.Status, today: CivilDate) -> JSONValue {
        var remote = JSONValue.null
        if let target = status.target {
            remote = .object([
                "target": .string(target.description), "reachable": .bool(status.reachable ?? false),
                "kind": .string({ if case .git = target { "git" } else { "folder" } }()),
            ])
        }
        return .object([
            "board": .string(status.path),
            "tasks": .object(
                Dictionary(
                    uniqueKeysWithValues: zip(TaskState.allCases.map(\.rawValue), status.counts.map { .number(String($0)) }))),
            "overdue": .number(String(status.overdue(today: today))), "remote": remote,
            "lastSync": status.sync.lastSync.map(JSONValue.string) ?? .null, "waiting": .number(String(status.waiting)),
            "conflicts": .array(
                status.conflicted.map { task in
                    .object([
                        "id": .string(task.id.rawValue), "title": .string(task.title),
                        "fields": .array(task.conflicts.keys.sorted().map(JSONValue.string)),
                    ])
                }),
            "restored": .array(status.board.tasks.filter(\.restored).map { .string($0.id.rawValue) }),
        ])
    }

    private func render(_ status: BoardSession.Status, _ context: ProcessContext) {
        let l = context.localizer
        let (board, target, reachable, counts) = (status.board, status.target, status.reachable, status.counts)
        let overdue = status.overdue(today: context.environment.today)
        let conflicted = status.conflicted
        let style = context.style(color: colors.useColor(context))
        // Each number with its counter where the language has one (할 일 3개).
        var tasks = zip(TaskState.allCases, counts).map {
            l.plural(.statusInColumn, count: $1, .text(l.string(StateNames.key($0))))
        }
        .joined(separator: " · ")
        if overdue > 0 { tasks += " · " + l.plural(.listOverdue, count: overdue) }
        // One word per row: it agrees with the row's noun (la cible → aucune).
        var remoteText = l.string(.statusNoRemote)
        if let target {
            remoteText =
                TextSafety.escaped(target.description) + " (" + context.kindName(target) + ") · "
                + l.string(reachable == true ? .statusReachable : .statusUnreachable)
        }
        let shortIDs = TaskLookup.shortIDs(for: board.tasks)
        var conflictLines = conflicted.map { task in
            (shortIDs[task.id] ?? "") + " " + TextSafety.escaped(task.title) + " ("
                + task.conflicts.keys.sorted().map { FieldNames.label($0, l) }.joined(separator: ", ") + ")"
        }
        if conflictLines.isEmpty { conflictLines = [l.string(.statusNone)] }
        var rows: [(L10nKey, String)] = [
            (.statusBoard, TextSafety.escaped(status.path)), (.statusTasks, tasks), (.statusRemote, remoteText),
        ]
        if target != nil {
            rows.append((.statusLastSync, status.sync.lastSync.map(style.dateTime) ?? l.string(.statusNever)))
            rows.append((.statusWaiting, l.plural(.statusWaitingCount, count: status.waiting)))
        }
        rows.append((.statusConflicts, conflictLines[0]))
        let labels = rows.map { l.string($0.0) }
        let width = labels.map { TerminalCells.width(of: $0) }.max() ?? 0
        for (label, row) in zip(labels, rows) {
            context.output.line(style.bold(TerminalCells.pad(label, toWidth: width)) + "  " + row.1)
        }
        for line in conflictLines.dropFirst() { context.output.line(String(repeating: " ", count: width + 2) + line) }
    }
}
