import ArgumentParser
import FoundationEssentials
import Glibc
import PMCore
import PMICU
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
        var gate = EventGate(now: Int64(context.environment.now().timeIntervalSince1970 * 1000))
        var budget = OtherCopy.totalBytes
        for file in files {
            var copy = try OtherCopy.read(file, budget: &budget)
            copy.quarantine { gate.admit($0, replica: nil) }
            let (store, replica) = context.signingStore()
            let added = try store.merge(
                copy.events, boardID: copy.boardID, newBoardID: context.environment.makeID(), replica: replica,
                source: file)
            if added > 0 { context.output.done = .changedBoard }
            context.output.line(context.localizer.plural(.mergeDone, count: added, .text(TextSafety.escaped(file))))
            if copy.skippedLines > 0 {
                context.output.errorLine(
                    context.localizer.plural(
                        .mergeSkipped, count: copy.skippedLines, .text(TextSafety.escaped(file)),
                        .number(copy.firstSkippedLine ?? 0)))
            }
            if copy.stoppedAtLongLine {
                context.output.errorLine(
                    context.localizer.string(
                        .syncLongLine, .text(TextSafety.escaped(file)), .number(EventProblem.lineLimit >> 20)))
            } else if let bytes = copy.cutAfterBytes {
                context.output.errorLine(
                    context.localizer.string(.syncCutFile, .text(TextSafety.escaped(file)), .number(max(1, bytes >> 20))))
            }
        }
    }
}

extension ProcessContext {
    /// This user's sync settings for the board at this context's path.
    func syncState() -> SyncStateStore {
        SyncStateStore(stateDirectory: environment.stateDirectory, boardKey: boardKey(), user: environment.user)
    }

    func remoteTarget(_ text: String, kind: String? = nil) -> RemoteTarget {
        let files = PosixFileSystem()
        return RemoteTarget(
            text, kind: kind,
            isGitRepository: { path in
                func exists(_ name: String) -> Bool { ((try? files.status(path + "/" + name)) ?? nil) != nil }
                return exists(".git") || (exists("HEAD") && exists("objects"))
            }, isDirectory: { path in ((try? files.status(path)) ?? nil)?.kind == .directory })
    }

    func transport(for target: RemoteTarget) -> Transport {
        switch target {
        case .folder(let path): return FolderTransport(path: path)
        case .git(let url):
            let cache = SyncStateStore.gitCache(
                stateDirectory: environment.stateDirectory, boardKey: boardKey(), url: url, user: environment.user)
            return GitTransport(url: url, cache: cache, environment: ProcessContext.variables, author: environment.user)
        }
    }

    func kindName(_ target: RemoteTarget) -> String {
        switch target {
        case .folder: return localizer.string(.remoteKindFolder)
        case .git: return localizer.string(.remoteKindGit)
        }
    }

    /// The sync of this copy with `target`; `signing`: it may change the
    /// board (a sync, not a look at what waits), so its key is made if needed.
    func syncer(_ target: RemoteTarget, signing: Bool = true) -> Syncer {
        let env = environment
        let (store, replica) = signing ? signingStore() : (store(), replica)
        return Syncer(
            store: store, state: syncState(), transport: transport(for: target), replica: replica,
            former: Array(ownReplicas.subtracting([replica])).sorted(),
            now: {
                let date = env.now()
                return (Int64(date.timeIntervalSince1970 * 1000), Timestamp.string(from: date))
            }, makeID: { env.makeID() })
    }

    /// Says what a sync did; offline is exit 75 with the changes waiting.
    /// - Parameter quietWhenIdle: a sync that moved nothing says nothing
    ///   (`pm sync --watch` after its first: no line every interval).
    func reportSync(_ body: () throws -> Syncer.Report, target: RemoteTarget, quietWhenIdle: Bool = false) throws {
        let name = TextSafety.escaped(target.description)
        let previous = (try? syncState().load())?.previousRemote
        do {
            let report = try body()
            if report.received > 0 { output.done = .changedBoard }
            for (file, count, line) in report.skipped {
                output.errorLine(localizer.plural(.mergeSkipped, count: count, .text(TextSafety.escaped(file)), .number(line)))
            }
            for file in report.setAside { output.line(localizer.string(.syncSetAside, .text(TextSafety.escaped(file)))) }
            for (person, count) in report.unsigned {
                output.errorLine(localizer.plural(.syncUnsigned, count: count, .text(TextSafety.escaped(person))))
            }
            for file in report.farAhead {
                let planted = report.notFiles.contains(file)
                output.errorLine(localizer.string(planted ? .syncNotAFileMoved : .syncFarAhead, .text(TextSafety.escaped(file))))
            }
            for file in report.notFiles where !report.farAhead.contains(file) {
                output.errorLine(localizer.string(.syncNotAFile, .text(TextSafety.escaped(file))))
            }
            for file in report.ignored { output.errorLine(localizer.string(.syncIgnoredFile, .text(TextSafety.escaped(file)))) }
            for file in report.stoppedAtLongLine {
                output.errorLine(
                    localizer.string(.syncLongLine, .text(TextSafety.escaped(file)), .number(EventProblem.lineLimit >> 20)))
            }
            for (file, bytes) in report.cut {
                let name = MessageArgument.text(TextSafety.escaped(file))
                if bytes == 0 {
                    output.errorLine(localizer.string(.syncOverBudget, name, .number(OtherCopy.totalBytes >> 20)))
                } else {
                    output.errorLine(localizer.string(.syncCutFile, name, .number(max(1, bytes >> 20))))
                }
            }
            if !quietWhenIdle || report.received > 0 || report.sent > 0 {
                output.line(localizer.string(.syncDone, .text(name), .number(report.received), .number(report.sent)))
            }
            // After a change of remote, what is passed on from what had been
            // synced with the old one came through it; the rest another way.
            let throughPrevious = previous == nil ? 0 : report.forwardedFromPrevious
            if let previous, throughPrevious > 0 {
                output.line(
                    localizer.plural(
                        .syncForwardedFromPrevious, count: throughPrevious, .text(name), .text(TextSafety.escaped(previous))))
            }
            if report.forwarded > throughPrevious {
                output.line(localizer.plural(.syncForwarded, count: report.forwarded - throughPrevious, .text(name)))
            }
        } catch SyncError.unreachable {
            let waiting = (try? syncer(target, signing: false).waiting()) ?? 0
            let said =
                waiting == 0
                ? localizer.string(.syncOfflineNothingWaiting, .text(name))
                : localizer.plural(.syncOffline, count: waiting, .text(name))
            throw CLIError.message(said, .locked)
        } catch SyncError.badRemote(_, let detail) {
            throw CLIError.message(localizer.string(.errorBadRemote, .text(name), .text(TextSafety.escaped(detail))), .badData)
        } catch SyncError.busy {
            throw CLIError.message(localizer.string(.syncBusy, .text(name)), .locked)
        } catch SyncError.local(let detail) {
            throw CLIError.message(localizer.string(.syncLocalFailure, .text(name), .text(TextSafety.escaped(detail))), .ioError)
        } catch SyncError.permission(_, let detail) {
            throw CLIError.message(
                localizer.string(.syncPermission, .text(name), .text(TextSafety.escaped(detail))), .noPermission)
        } catch SyncError.diskFull(let place, let detail) {
            throw CLIError.message(
                localizer.string(.syncDiskFull, .text(TextSafety.escaped(place)), .text(TextSafety.escaped(detail))), .ioError)
        } catch SyncError.otherBoard {
            // Named by the remote, with the two ways on, as commands to paste.
            let tasks = (try? store().load())?.tasks.count ?? 0
            let synced = (try? syncState().load().lastSync) != nil
            let beside = Paths.parent(of: (try? store().targetPath()) ?? environment.boardPath) + "/team/board.json"
            throw CLIError.message(
                localizer.plural(
                    synced ? .syncOtherBoardChanged : .syncOtherBoard, count: tasks,
                    .text(ShellWord.quoted(TextSafety.escaped(target.description))),
                    .text(ShellWord.quoted(TextSafety.escaped(beside)))), .badData)
        }
    }

    /// Makes this board the remote's board `id` (`pm sync --join`), its
    /// undo history going with it. Returns how many tasks it brings.
    func join(_ id: TaskID) throws -> Int {
        let tasks = try store().load()?.tasks.count ?? 0
        guard let old = try store().adopt(id), old != id else { return tasks }
        let from = UndoStore(
            stateDirectory: environment.stateDirectory, boardID: old, boardKey: boardKey(), user: environment.user)
        let to = UndoStore(stateDirectory: environment.stateDirectory, boardID: id, boardKey: boardKey(), user: environment.user)
        let files = PosixFileSystem()
        if ((try? files.linkStatus(to.path)) ?? nil) == nil { try? files.rename(from.path, to: to.path) }
        return tasks
    }

    /// The remote set for this board, or a refusal saying how to add one.
    func requireRemote() throws -> RemoteTarget {
        let state = try syncState().load()
        guard let text = state.remote else { throw CLIError.message(localizer.string(.errorNoRemote), .refused) }
        return remoteTarget(text, kind: state.remoteKind)
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
        let target = try context.requireRemote()
        try context.keyStore().checkSafe()
        try context.mergeConflictedCopies()
        if join || !watch {
            var joined: Int?
            try context.reportSync(
                {
                    do {
                        return try context.syncer(target).sync()
                    } catch SyncError.otherBoard(let remote, _) where join {
                        joined = try context.join(remote)
                        return try context.syncer(target).sync()
                    }
                }, target: target)
            if let joined {
                context.output.line(
                    context.localizer.plural(.syncJoined, count: joined, .text(TextSafety.escaped(target.description))))
            }
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
        let place = MessageArgument.text(TextSafety.escaped(target.description))
        let l = context.localizer
        let often =
            milliseconds == 1000
            ? l.string(.syncEverySecond)
            : milliseconds % 1000 == 0
                ? l.plural(.syncEverySeconds, count: milliseconds / 1000)
                : l.plural(.syncEveryMilliseconds, count: milliseconds)
        context.output.line(l.string(.syncWatching, place, .text(often)))
        try context.output.flush()
        let logPath = try context.store().eventLog().path
        func logSize() -> Int64 { ((try? PosixFileSystem().status(logPath)) ?? nil)?.size ?? -1 }
        var seenSize: Int64 = -2
        var lastSync = Date.distantPast
        let store = context.syncState()
        let setting = try store.load()
        while true {
            if logSize() != seenSize || Date().timeIntervalSince(lastSync) >= interval {
                // The state deleted under the watch (a cleanup, the whole
                // folder): the remote it syncs with is written back, not
                // lost. `pm remote remove` leaves a state without a remote:
                // then the watch ends, as asked.
                if let remote = setting.remote, (try? store.load())?.remote == nil {
                    if ((try? PosixFileSystem().status(store.path)) ?? nil) != nil {
                        context.output.line(context.localizer.string(.remoteNone))
                        return
                    }
                    var again = SyncState(remote: remote)
                    again.remoteKind = setting.remoteKind
                    let folder = String(store.path[..<(store.path.lastIndex(of: "/") ?? store.path.startIndex)])
                    try? PosixFileSystem().createDirectories(folder)
                    try store.save(again)
                }
                do {
                    try context.reportSync(
                        { try context.syncer(target).sync() }, target: target, quietWhenIdle: lastSync != .distantPast)
                } catch CLIError.message(let text, _) {
                    context.output.errorLine(text)
                }
                try context.output.flush()
                seenSize = logSize()
                lastSync = Date()
            }
            var wait = timespec(tv_sec: 0, tv_nsec: 200_000_000)
            if sigtimedwait(&stops, nil, &wait) > 0 { return }
        }
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
        let l = context.localizer
        try context.mergeConflictedCopies()
        let board = try context.loadBoard()
        let today = context.environment.today
        let state = try context.syncState().load()
        let target = state.remote.map { context.remoteTarget($0, kind: state.remoteKind) }
        let reachable = target.map { context.transport(for: $0).reachable() }
        let waiting = try target.map { try context.syncer($0, signing: false).waiting(network: reachable == true) } ?? 0
        let counts = TaskState.allCases.map { state in board.tasks.filter { $0.state == state }.count }
        let overdue = board.tasks.filter { $0.isOverdue(today: today) }.count
        let conflicted = board.tasks.filter { !$0.conflicts.isEmpty }
        let path = (try? context.store().targetPath()) ?? context.environment.boardPath
        if output.json {
            var remote = JSONValue.null
            if let target {
                remote = .object([
                    "target": .string(target.description), "reachable": .bool(reachable ?? false),
                    "kind": .string({ if case .git = target { "git" } else { "folder" } }()),
                ])
            }
            let object: JSONValue = .object([
                "board": .string(path),
                "tasks": .object(
                    Dictionary(uniqueKeysWithValues: zip(TaskState.allCases.map(\.rawValue), counts.map { .number(String($0)) }))),
                "overdue": .number(String(overdue)), "remote": remote,
                "lastSync": state.lastSync.map(JSONValue.string) ?? .null, "waiting": .number(String(waiting)),
                "conflicts": .array(
                    conflicted.map { task in
                        .object([
                            "id": .string(task.id.rawValue), "title": .string(task.title),
                            "fields": .array(task.conflicts.keys.sorted().map(JSONValue.string)),
                        ])
                    }),
                "restored": .array(board.tasks.filter(\.restored).map { .string($0.id.rawValue) }),
            ])
            context.output.line(object.prettyJSON)
            return
        }
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
            (.statusBoard, TextSafety.escaped(path)), (.statusTasks, tasks), (.statusRemote, remoteText),
        ]
        if target != nil {
            rows.append((.statusLastSync, state.lastSync.map(style.dateTime) ?? l.string(.statusNever)))
            rows.append((.statusWaiting, l.plural(.statusWaitingCount, count: waiting)))
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
