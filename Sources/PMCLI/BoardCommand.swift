import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import PMBoardUI
import PMCore
import PMICU
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

/// `pm board`: the interactive board (DESIGN.md §11). Every write goes
/// through the same store, lock, event log and undo as the commands.
struct BoardCommand: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "board", abstract: help(.helpCommandBoard))
    }

    @OptionGroup var common: CommonOptions
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw CLIError.message(context.localizer.string(.errorBoardNeedsTerminal), .usage)
        }
        // A terminal that cannot move the cursor (an editor's shell, a serial
        // console) would show escape codes: say so, and what works there.
        let term = ProcessContext.variables["TERM"] ?? ""
        if term.isEmpty || term == "dumb" {
            throw CLIError.message(context.localizer.string(.errorBoardDumbTerminal, .text(term.isEmpty ? "—" : term)), .usage)
        }
        var renderer = BoardRenderer(
            localizer: context.localizer, formatLocale: context.formatLocale, today: context.environment.today)
        renderer.checkDue = LiveBoard.checkDue(context)
        let driver = TerminalDriver(
            source: LiveBoard(context: context), renderer: renderer, color: colors.useColor(context))
        do {
            try driver.run()
        } catch TerminalError.notATerminal {
            throw CLIError.message(context.localizer.string(.errorBoardNeedsTerminal), .usage)
        }
    }
}

/// The board on disk, for the interactive board.
final class LiveBoard: BoardSource, @unchecked Sendable {
    let context: ProcessContext
    /// Background sync (a remote set): one at a time, every interval and after a change here.
    private let lock = Lock()
    private var syncing = false
    private var lastSync = Date.distantPast
    private var syncedFingerprint = ""
    private let interval = Double(ProcessContext.variables["PM_SYNC_INTERVAL"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 30

    init(context: ProcessContext) { self.context = context }

    func tick() {
        guard let state = try? context.syncState().load(), let remote = state.remote else { return }
        let now = Date()
        let current = fingerprint()
        let start = lock.withLock { () -> Bool in
            guard !syncing, now.timeIntervalSince(lastSync) >= interval || current != syncedFingerprint else { return false }
            syncing = true
            lastSync = now
            return true
        }
        guard start else { return }
        let syncer = context.syncer(context.remoteTarget(remote, kind: state.remoteKind))
        DispatchQueue.global().async { [self] in
            _ = try? syncer.sync()
            let after = fingerprint()
            lock.withLock {
                syncing = false
                syncedFingerprint = after
            }
        }
    }

    func load() throws -> (tasks: [BoardTask], canUndo: Bool, canRedo: Bool, undoBlocked: Bool) {
        let board = try context.loadBoard()
        let log = try? context.store().eventLog()
        let state = (try? context.undoStore(for: board).load().resolved(against: board, log: log)) ?? UndoState()
        let blocked = state.undo.last.map { !board.canRevert($0) } ?? false
        return (board.tasks, !state.undo.isEmpty, !state.redo.isEmpty, blocked)
    }

    func perform(_ effect: BoardScreen.Effect) throws -> String {
        let env = context.environment
        let l = context.localizer
        switch effect {
        case .move(let id, let target):
            let (before, after) = try context.change { board in
                try board.move(id, to: target, eventID: env.makeID(), by: env.user, at: context.now)
            }
            return l.string(
                .messageMoved, context.shown(after.title), context.columnName(before.state), context.columnName(after.state))
        case .delete(let id):
            let task = try context.change { board in try board.delete(id, eventID: env.makeID(), by: env.user, at: context.now) }
            return l.string(.messageDeleted, context.shown(task.title), context.columnName(task.state))
        case .undo, .redo:
            let redo = effect == .redo
            let event = try context.undoOrRedo(redo: redo)
            let sentence = HistoryView(localizer: l, style: context.style(color: false)).sentence(event)
            return l.string(redo ? .messageRedone : .messageUndone, .text(l.afterColon(sentence)))
        case .openEdit, .openConflicts:
            return ""
        case .resolve(let id, let choice):
            return try resolve(id, choice)
        case .save(let form):
            return try save(form)
        case .quit:
            return ""
        }
    }

    /// Saves the form: a new card, or only the fields that changed (a
    /// colleague's change to another field meanwhile is kept).
    private func save(_ form: TaskForm) throws -> String {
        let env = context.environment
        let l = context.localizer
        let due = form.due.trimmingWhiteSpace()
        guard let id = form.task else {
            let deadline = due.isEmpty ? nil : try context.parseDate(due)
            let task = try context.change { board in
                try board.add(
                    title: form.title, body: form.body, due: deadline, id: env.makeID(), eventID: env.makeID(), by: env.user,
                    at: context.now)
            }
            return l.string(.messageAdded, context.shown(task.title))
        }
        var edit = Board.Edit()
        if form.title != form.original[0] { edit.title = form.title }
        if form.body != form.original[1] { edit.body = form.body }
        if form.due != form.original[2] { edit.due = .some(due.isEmpty ? nil : try context.parseDate(due)) }
        let (task, made) = try context.change { board in try context.edited(id, edit, in: &board) }
        return context.editSentence(task, made)
    }

    /// Keeps one value of a field in conflict, as `pm edit` (or `pm move`
    /// for the column) would: every copy then agrees on it.
    private func resolve(_ id: TaskID, _ choice: ConflictChoice) throws -> String {
        let env = context.environment
        if choice.field == "state" {
            guard case .string(let raw) = choice.value, let state = TaskState(rawValue: raw) else { return "" }
            let (_, after) = try context.change { board in
                try board.move(id, to: state, eventID: env.makeID(), by: env.user, at: context.now)
            }
            return context.localizer.string(
                .historyResolved, context.shown(after.title), .text(FieldNames.label("state", context.localizer).lowercased()))
        }
        var edit = Board.Edit()
        switch (choice.field, choice.value) {
        case ("title", .string(let text)): edit.title = text
        case ("body", .string(let text)): edit.body = text
        case ("due", .string(let text)): edit.due = .some(CivilDate(iso: text))
        case ("due", _): edit.due = .some(nil)
        default: return ""
        }
        let (task, made) = try context.change { board in try context.edited(id, edit, in: &board) }
        return context.editSentence(task, made)
    }

    /// What a typed deadline means, or why it is not a date.
    static func checkDue(_ context: ProcessContext) -> @Sendable (String) -> (valid: Bool, text: String) {
        let localizer = context.localizer
        nonisolated(unsafe) let context = context
        return { text in
            guard let date = try? context.parseDate(text) else { return (false, localizer.string(.boardFormBadDue)) }
            return (true, localizer.string(.boardFormDueMeans, .text(context.style(color: false).date(date))))
        }
    }

    func history(task: TaskID?, limit: Int) -> [String] {
        guard let events = try? context.store().recentHistory(limit: max(1, limit), task: task?.rawValue) else { return [] }
        return HistoryView(localizer: context.localizer, style: context.style(color: false)).lines(events)
    }

    func status() -> BoardStatus {
        let l = context.localizer
        guard let state = try? context.syncState().load(), state.remote != nil else {
            return BoardStatus(link: .local, indicator: l.string(.boardLinkLocal))
        }
        var summary = List.syncSummary(context, style: context.style(color: false), saysOffline: false) ?? ""
        // A sync under way is said on the left; the link keeps what the last one found.
        let running = lock.withLock { syncing }
        if running { summary = l.string(.boardLinkSyncing) + " " + summary }
        if state.lastAttempt == nil {
            return BoardStatus(link: .syncing, indicator: l.string(.boardLinkSyncing), summary: summary)
        }
        if let at = state.wentOffline {
            return BoardStatus(link: .offline, indicator: l.string(.boardLinkOffline, .text(since(at))), summary: summary)
        }
        return BoardStatus(link: .online, indicator: l.string(.boardLinkOnline), summary: summary)
    }

    /// When the board went offline: the time alone today, else the date and time.
    private func since(_ stored: String) -> String {
        let style = context.style(color: false)
        guard let date = Timestamp.parse(stored, zone: context.environment.timeZone),
            Timestamp.civilDate(of: date, in: context.environment.timeZone) == context.environment.today
        else { return style.dateTime(stored) }
        return style.time(stored)
    }

    func today() -> CivilDate { context.environment.today }

    func reminders(_ tasks: [BoardTask]) -> [TaskID: String] {
        let style = context.style(color: false)
        let due = context.reminders.due(
            context.remindable(tasks), now: context.environment.now(), zone: context.environment.timeZone)
        return Dictionary(
            due.map { task in
                (task.id, context.localizer.string(.remindLine, context.shown(task.title), .text(task.due.map(style.date) ?? "")))
            }, uniquingKeysWith: { first, _ in first })
    }

    func fingerprint() -> String {
        guard let store = try? context.store().targetPath() else { return "" }
        let paths = [store, String(store.dropLast(store.hasSuffix(".json") ? 5 : 0)) + ".events.jsonl"]
        return paths.map { path -> String in
            var info = stat()
            guard stat(path, &info) == 0 else { return "-" }
            return "\(info.st_size):\(info.st_mtim.tv_sec):\(info.st_mtim.tv_nsec):\(info.st_ino)"
        }.joined(separator: "|")
    }

    func describe(_ error: Error) -> String {
        ErrorReport.describe(error, localizer: context.localizer).lines.joined(separator: " ")
    }
}
