import ArgumentParser
import FoundationEssentials
import Glibc
import PMCore
import PMICU
import PMLocalization
import PMSync

/// `pm remote [show | add TARGET | remove]`.
struct Remote: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "remote",
            abstract: help(.helpCommandRemote), subcommands: [RemoteShow.self, RemoteAdd.self, RemoteRemove.self],
            defaultSubcommand: RemoteShow.self)
    }
}

struct RemoteShow: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "show", abstract: help(.helpCommandRemoteShow))
    }

    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let state = try context.syncState().load()
        guard let text = state.remote else {
            context.output.line(context.localizer.string(.remoteNone))
            return
        }
        let target = context.remoteTarget(text, kind: state.remoteKind)
        context.output.line(
            context.localizer.string(.remoteShow, .text(TextSafety.escaped(text)), .text(context.kindName(target))))
    }
}

struct RemoteAdd: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "add", abstract: help(.helpCommandRemoteAdd))
    }

    @Argument(help: ArgumentHelp(help(.helpRemoteTarget))) var target: String
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        var text = target
        // git would read it as an option (`--upload-pack=CMD`): never handed on.
        if RemoteTarget.looksLikeOption(text) {
            throw CLIError.message(
                context.localizer.string(.errorRemoteLooksLikeOption, .text(TextSafety.escaped(text))), .usage)
        }
        // A path means what it meant where the user typed it, never a
        // place inside pm's own files.
        if RemoteTarget.isLocalPath(text) { text = Paths.standardized(Paths.absolute(text)) }
        let remote = context.remoteTarget(text)
        let files = PosixFileSystem()
        let found = (try? files.status(text)) ?? nil
        var notes: [String] = []
        switch remote {
        case .folder:
            // A folder must exist or be creatable in a folder that does; made, it is said.
            if found == nil {
                let parent = Paths.parent(of: text)
                guard ((try? files.status(parent)) ?? nil)?.kind == .directory, mkdir(text, 0o777) == 0 else {
                    throw CLIError.message(
                        context.localizer.string(.errorRemoteFolderMissing, .text(TextSafety.escaped(text))), .usage)
                }
                notes.append(context.localizer.string(.remoteFolderCreated, .text(TextSafety.escaped(text))))
            } else if found?.kind != .directory {
                throw CLIError.message(
                    context.localizer.string(.errorRemoteFolderMissing, .text(TextSafety.escaped(text))), .usage)
            }
        case .git:
            if RemoteTarget.isLocalPath(text), found == nil {
                notes.append(context.localizer.string(.remoteGitMissing, .text(ShellWord.quoted(TextSafety.escaped(text)))))
            }
        }
        let store = context.syncState()
        var state = try store.load()
        if let old = state.remote, old != text {
            context.output.line(context.localizer.string(.remoteReplaced, .text(TextSafety.escaped(old))))
        }
        if state.remote != text || state.remoteKind != remote.kind {
            let previous = state.remote.flatMap { $0 == text ? nil : $0 } ?? state.previousRemote
            // How far the log had reached the old remote (a remote replaced
            // before any sync with it keeps the one before it).
            let previousSynced = state.remote.flatMap { $0 == text ? nil : state.syncedEvents } ?? state.previousSyncedEvents
            // (What this copy synced as stays its own, whatever the remote.)
            let replicas = state.replicas
            state = SyncState(remote: text)
            state.remoteKind = remote.kind
            state.previousRemote = previous
            state.previousSyncedEvents = previous == nil ? nil : previousSynced
            state.replicas = replicas
        }
        try store.save(state)
        context.output.line(
            context.localizer.string(.remoteSet, .text(TextSafety.escaped(text)), .text(context.kindName(remote))))
        for note in notes { context.output.line(note) }
        // A remote that holds another board: said now, with the two ways on,
        // not only at the next sync's refusal (issue 44, item 15).
        if state.lastSync == nil, let board = try? context.store().load(), !board.tasks.isEmpty || board.log.events > 1,
            let theirs = Self.boardHeld(by: remote, context: context), board.id != theirs
        {
            let beside =
                Paths.parent(of: (try? context.store().targetPath()) ?? context.environment.boardPath) + "/team/board.json"
            context.output.line(
                context.localizer.plural(
                    .remoteOtherBoard, count: board.tasks.count, .text(ShellWord.quoted(TextSafety.escaped(text))),
                    .text(ShellWord.quoted(TextSafety.escaped(beside)))))
        }
    }

    /// The board a remote holds, when that can be known now: a folder's
    /// description, read in place; a git remote's, fetched into pm's clone
    /// (what the first sync would fetch anyway) unless a sync is using it.
    /// Nil when it holds none yet or cannot be reached: the sync says why.
    static func boardHeld(by remote: RemoteTarget, context: ProcessContext) -> TaskID? {
        switch remote {
        case .folder(let path): return RemoteDescription.board(inFolder: path)
        case .git:
            guard let lock = try? SyncLock.acquire(context.syncState().path + ".lock", timeout: 0) else { return nil }
            defer { lock.release() }
            return (try? context.transport(for: remote).fetch())?.boardID
        }
    }
}

struct RemoteRemove: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "remove", abstract: help(.helpCommandRemoteRemove), aliases: ["rm"])
    }

    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        let store = context.syncState()
        guard let text = try store.load().remote else {
            context.output.line(context.localizer.string(.remoteNone))
            return
        }
        // An empty state, not none: a `pm sync --watch` running tells a
        // remote removed (it stops) from a state folder deleted (it writes
        // its remote back).
        try store.save(SyncState())
        context.output.line(context.localizer.string(.remoteRemoved, .text(TextSafety.escaped(text))))
    }
}
