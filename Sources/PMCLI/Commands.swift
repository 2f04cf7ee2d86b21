import ArgumentParser
import PMCore
import PMICU
import PMLocalization
import PMSync

/// The root command.
public struct PM: ParsableCommand {
    /// What `pm --version` prints.
    static let version = PMVersion.string

    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "pm",
            abstract: help(.helpCommandRoot),
            version: version,
            subcommands: [
                Add.self, List.self, Show.self, Edit.self, Move.self, Delete.self, History.self, Undo.self, Redo.self,
                Start.self, Done.self, Assign.self, Unassign.self, Take.self, News.self, BoardCommand.self, Merge.self, Sync.self,
                Remote.self, Status.self, Remind.self,
                Checkpoint.self,
                Import.self, Export.self, Completion.self, L10n.self, Complete.self, Generate.self,
            ]
        )
    }

    public init() {}
}

/// Helpers every command uses.
extension ProcessContext {
    var now: String { Timestamp.string(from: environment.now()) }

    func style(color: Bool) -> TextStyle {
        TextStyle(color: color, formatLocale: formatLocale, zone: environment.timeZone)
    }

    /// Reads the board (an empty one when the file does not exist yet).
    func loadBoard() throws -> Board {
        if let board = try store().load() {
            UntilExit.keep(board)
            return board
        }
        return emptyBoard()
    }

    /// The board shown when there is none yet (nothing is created).
    func emptyBoard() -> Board {
        // `--board` naming nothing: say so, in case it is a typo.
        if boardFromOption { output.errorLine(localizer.string(.messageNoBoardYet, shown(environment.boardPath))) }
        return Board(id: environment.makeID())
    }

    /// This machine's, this user's replica of the board at this context's
    /// path: the one its key makes, or (no key yet) the name-based id
    /// replicas had before keys. Reading never makes a key.
    var replica: TaskID { keyStore().existing()?.replica ?? formerReplica }

    /// The replicas this user's copy of the board writes as: its signing
    /// key's and the one before keys. What they made is no news here.
    var ownReplicas: Set<TaskID> {
        let synced = ((try? syncState().load())?.replicas ?? []).compactMap(TaskID.init)
        return Set([replica, formerReplica] + synced)
    }

    /// The name-based id this copy had before it signed its events: what it
    /// made under it is still its own to publish.
    var formerReplica: TaskID {
        BoardStore.replicaID(host: PosixFileSystem().hostName, user: environment.user, boardKey: boardKey())
    }

    /// Where this copy's signing key is kept.
    func keyStore() -> ReplicaKeyStore {
        ReplicaKeyStore(
            stateDirectory: environment.stateDirectory, host: PosixFileSystem().hostName, boardKey: boardKey(),
            user: environment.user)
    }

    /// The store, signing with this copy's key (made now if it has none),
    /// and the replica its events claim.
    func signingStore() -> (store: BoardStore, replica: TaskID) {
        var store = store()
        let keys = keyStore()
        store.signer = keys.signer()
        if store.signer == nil { store.keyPath = keys.path }
        return (store, store.signer?.replica ?? formerReplica)
    }

    /// This user's undo store for a board at this context's path.
    func undoStore(for board: Board) -> UndoStore {
        UndoStore(stateDirectory: environment.stateDirectory, boardID: board.id, boardKey: boardKey(), user: environment.user)
    }

    /// A log put back from a backup while board.json stayed: the board goes
    /// back to the log, keeping what only board.json held as new changes, and says so.
    func recoverOlderLog() {
        let now = environment.now()
        let stamp = String(Timestamp.string(from: now).filter(\.isNumber).prefix(14))
        guard store().olderLogNeedsRecovery() else { return }
        let (store, replica) = signingStore()
        // What the remote held at the last sync, as it is on this machine
        // (a folder remote, pm's clone of a git one): taken back first.
        var remote: [Event] = []
        if let state = try? syncState().load(), let text = state.remote {
            let folder: String
            switch remoteTarget(text, kind: state.remoteKind) {
            case .folder(let path): folder = path
            case .git(let url):
                folder = SyncStateStore.gitCache(
                    stateDirectory: environment.stateDirectory, boardKey: boardKey(), url: url, user: environment.user)
            }
            remote = Syncer.eventsOnThisMachine(folder, now: Int64(now.timeIntervalSince1970 * 1000))
        }
        guard
            let recovery = try? store.recoverOlderLog(
                replica: replica, author: environment.user, at: Timestamp.string(from: now), stamp: stamp, remote: remote,
                makeID: { environment.makeID() })
        else { return }
        output.done = .changedBoard
        let log = (try? store.eventLog().path) ?? environment.boardPath
        output.errorLine(localizer.plural(.messageOlderLog, count: recovery.kept, shown(log), shown(recovery.copy)))
    }

    /// Folds in sync tools' conflicted copies found beside the board, saying so.
    func mergeConflictedCopies() throws {
        guard try !store().conflictedCopies().isEmpty else { return }
        let (store, replica) = signingStore()
        let now = Int64(environment.now().timeIntervalSince1970 * 1000)
        for copy in try store.mergeConflictedCopies(newBoardID: environment.makeID(), replica: replica, now: now) {
            let key: L10nPluralKey = copy.movedAside ? .mergeConflictedCopy : .mergeConflictedCopyKept
            output.errorLine(localizer.plural(key, count: copy.added, .text(TextSafety.escaped(copy.path))))
        }
    }

    /// A deadline as typed: ISO, today/tomorrow/+Nd/+Nw, the locale's short
    /// numeric date with or without the year, or the words of the reader's
    /// language (DESIGN.md §3; English's built-in forms work everywhere).
    func parseDate(_ text: String) throws -> CivilDate {
        try DateInput.parse(
            text, today: environment.today, words: DateWordTable.words(localizer: localizer, formatLocale: formatLocale),
            localFormat: LocalDateFormat(locale: formatLocale))
    }

    /// A title as printed in a sentence: escaped, never raw.
    /// The day pm chose for a date typed in a form that reads two ways
    /// (`vendredi prochain`, `1/3`), on standard error (standard output is
    /// the new task's id): `Read 'next friday' as Friday, December 4, 2026.`
    func sayDayChosen(_ typed: String, _ date: CivilDate) {
        let words = DateWordTable.words(localizer: localizer, formatLocale: formatLocale)
        guard !DateInput.readsOneWay(typed, words: words) else { return }
        output.errorLine(localizer.string(.messageDayChosen, shown(typed), .text(style(color: false).dateWithWeekday(date))))
    }

    func shown(_ text: String) -> MessageArgument { .text(TextSafety.escaped(text)) }

    func columnName(_ state: TaskState) -> MessageArgument { .text(localizer.string(StateNames.key(state))) }
}

struct Add: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "add", abstract: help(.helpCommandAdd)) }

    @Argument(help: ArgumentHelp(help(.helpTitle))) var title: String
    @Option(help: ArgumentHelp(help(.helpBody))) var body: String = ""
    @Option(help: ArgumentHelp(help(.helpDue))) var due: String?
    @Option(help: ArgumentHelp(help(.helpTo), valueName: "name")) var to: [String] = []
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let env = context.environment
        let deadline = try due.map { try context.parseDate($0) }
        let assignees = try to.flatMap { try Assignees.names($0) }
        let id = env.makeID()
        var lookalikes: [(name: String, like: String)] = []
        let (task, shortID) = try context.change { board in
            lookalikes = ICUConfusables.lookalikes(of: assignees, among: Set(board.tasks.flatMap(\.assignees)))
            let task = try board.add(
                title: title, body: body, due: deadline, assignees: assignees, id: id, eventID: env.makeID(), by: env.user,
                at: context.now)
            return (task, TaskLookup.shortID(of: task.id, among: board.tasks))
        }
        context.output.line(output.json ? TaskJSON.object(task, today: env.today) : shortID)
        context.warnLookalikes(lookalikes)
        if let due, let deadline { context.sayDayChosen(due, deadline) }
    }
}

struct Show: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "show", abstract: help(.helpCommandShow)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        let today = context.environment.today
        // Only the task shown is decoded (through the board's index).
        let lines = try context.store().withFewTasks { board in
            let task = try TaskLookup.find(id, in: board ?? context.emptyBoard())
            if output.json { return [TaskJSON.object(task, today: today)] }
            let view = TaskView(localizer: context.localizer, style: context.style(color: colors.useColor(context)), today: today)
            return view.render(task)
        }
        for line in lines { context.output.line(line) }
    }
}

struct Edit: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "edit", abstract: help(.helpCommandEdit)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @Option(help: ArgumentHelp(help(.helpTitle))) var title: String?
    @Option(help: ArgumentHelp(help(.helpBody))) var body: String?
    @Option(help: ArgumentHelp(help(.helpDue))) var due: String?
    @Flag(name: .customLong("no-due"), help: ArgumentHelp(help(.helpNoDue))) var noDue = false
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let env = context.environment
        if due != nil && noDue { throw CLIError.dueAndNoDue }
        if title == nil && body == nil && due == nil && !noDue { throw CLIError.nothingToEdit }
        var change = Board.Edit(title: title, body: body)
        if noDue { change.due = .some(nil) }
        if let due { change.due = .some(try context.parseDate(due)) }
        let (task, made) = try context.change { board in
            let task = try TaskLookup.find(id, in: board)
            return try context.edited(task.id, change, in: &board)
        }
        if output.json {
            context.output.line(TaskJSON.object(task, today: env.today))
        } else {
            context.output.line(context.editSentence(task, made))
        }
    }
}

struct Move: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "move", abstract: help(.helpCommandMove)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @Argument(help: ArgumentHelp(help(.helpState))) var state: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.move(id, to: try StateNames.parse(state, localizer: context.localizer), json: output.json)
    }
}

/// `pm start ID`: to DOING.
struct Start: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "start", abstract: help(.helpCommandStart))
    }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws { try context.move(id, to: .doing, json: output.json) }
}

/// `pm done ID`: to DONE.
struct Done: PMCommand {
    static var configuration: CommandConfiguration { CommandConfiguration(commandName: "done", abstract: help(.helpCommandDone)) }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws { try context.move(id, to: .done, json: output.json) }
}

extension ProcessContext {
    /// Moves a task and says so (or that it was already there).
    func move(_ id: String, to target: TaskState, json: Bool) throws {
        let context = self
        let env = environment
        let (before, after) = try context.change { board in
            let task = try TaskLookup.find(id, in: board)
            return try board.move(task.id, to: target, eventID: env.makeID(), by: env.user, at: context.now)
        }
        let l = context.localizer
        if json {
            context.output.line(TaskJSON.object(after, today: env.today))
        } else if before.state == after.state {
            context.output.line(l.string(.messageAlreadyThere, context.shown(after.title), context.columnName(after.state)))
        } else {
            context.output.line(
                l.string(
                    .messageMoved, context.shown(after.title), context.columnName(before.state), context.columnName(after.state)))
        }
    }
}

struct Delete: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "delete", abstract: help(.helpCommandDelete), aliases: ["rm"])
    }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let env = context.environment
        let task = try context.change { board in
            let task = try TaskLookup.find(id, in: board)
            return try board.delete(task.id, eventID: env.makeID(), by: env.user, at: context.now)
        }
        if output.json {
            context.output.line(TaskJSON.object(task, today: env.today))
        } else {
            context.output.line(
                context.localizer.string(.messageDeleted, context.shown(task.title), context.columnName(task.state)))
        }
    }
}
