import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import PMBoardUI
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// `pm board --sort due|priority`: the board's own order, or urgent first.
enum BoardSortOrder: String, ExpressibleByArgument, CaseIterable {
    case due, priority
}

/// `pm board`: the interactive board (DESIGN.md §11). Every write goes
/// through the same store, lock, event log and undo as the commands.
struct BoardCommand: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "board", abstract: help(.helpCommandBoard))
    }

    @Option(name: .long, help: ArgumentHelp(help(.helpView), valueName: "view")) var view: String?
    @Option(name: .long, help: ArgumentHelp(help(.helpBoardSort))) var sort: BoardSortOrder?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions
    @OptionGroup var colors: ColorOption

    func run(in context: ProcessContext) throws {
        let filter = try filters.filter(context)
        let saved = try view.map { try AppliedView($0, context) }
        _ = try context.syncInterval()
        let invocation = CurrentRun.now.invocation
        guard isatty(invocation.input) == 1, isatty(invocation.output) == 1 else { throw CLIError.boardNeedsTerminal }
        // A terminal that cannot move the cursor (an editor's shell, a serial
        // console) would show escape codes: say so, and what works there.
        let term = context.term
        if term.isEmpty || term == "dumb" {
            throw CLIError.boardDumbTerminal(term)
        }
        let renderer = Self.renderer(context)
        let driver = TerminalDriver(
            source: LiveBoard(
                context: context, filter: filter,
                typed: (view.map { ["--view " + ShellWord.quoted(TextSafety.escaped($0))] } ?? []) + filters.typed,
                view: saved, byPriority: sort.map { $0 == .priority } ?? (saved?.sort == .priority)),
            renderer: renderer,
            color: colors.useColor(context))
        do {
            try driver.run()
        } catch TerminalError.notATerminal {
            throw CLIError.boardNeedsTerminal
        }
    }

    /// The board's renderer, with the reader's words for what a card carries.
    static func renderer(_ context: ProcessContext) -> BoardRenderer {
        var renderer = BoardRenderer(
            localizer: context.localizer, formatLocale: context.formatLocale, today: context.environment.today)
        renderer.checkDue = LiveBoard.checkDue(context)
        (renderer.zone, renderer.now) = (context.environment.timeZone, context.environment.now())
        let localizer = context.localizer
        nonisolated(unsafe) let fields = TaskFields(
            localizer: localizer, style: context.style(color: false), today: context.environment.today)
        renderer.cardDetails = { task in
            let checklist = fields.checklist(task)
            var lines = checklist.items.isEmpty ? [] : [checklist.heading] + checklist.items.map { "  " + $0 }
            let comments = fields.comments(task)
            if !comments.isEmpty {
                if !lines.isEmpty { lines.append("") }
                lines.append(localizer.string(.showComments))
                for comment in comments { lines += ["  " + comment.heading] + comment.text.map { "    " + $0 } }
            }
            return lines
        }
        renderer.cardMarks = { task in
            (
                PriorityNames.mark(task.priority, localizer: localizer), CardMarks.line(task),
                task.priority == nil ? "" : PriorityNames.name(task.priority, localizer: localizer)
            )
        }
        return renderer
    }
}

/// The board on disk, for the interactive board.
final class LiveBoard: BoardSource, @unchecked Sendable {
    let context: ProcessContext
    var session: BoardSession { context.session }
    /// Background sync (a remote set): one at a time, every interval and after a change here.
    private let background = Mutex(Background())
    private struct Background {
        var syncing = false
        /// When the last sync started, on the session's monotonic clock.
        var lastSync: Double?
        var syncedFingerprint = ""
    }
    private var interval: Double { Double(context.syncIntervalMilliseconds) / 1000 }

    /// The filter the board was opened with (`pm board --mine --overdue`),
    /// and its options as typed, for the status line.
    let fixed: TaskFilter
    let typed: [String]

    /// A saved view the board was opened with (`pm board --view NAME`).
    let view: AppliedView?
    let byPriority: Bool

    init(
        context: ProcessContext, filter: TaskFilter = TaskFilter(), typed: [String] = [], view: AppliedView? = nil,
        byPriority: Bool = false
    ) {
        self.context = context
        fixed = filter
        self.typed = typed
        self.view = view
        self.byPriority = byPriority
    }

    var openedFiltered: Bool { !fixed.isEmpty || view != nil }

    func ordered(_ tasks: [BoardTask]) -> [BoardTask] {
        byPriority ? BoardTask.byPriority(tasks) : BoardTask.byDeadline(tasks)
    }

    /// The board last loaded: its id names the reader's `pm news` mark.
    private var loadedBoard: Board?
    private var loaded: TaskID? { loadedBoard?.id }

    func tick() {
        guard let state = try? context.session.syncState().load(), let remote = state.remote else { return }
        let now = session.settings.monotonicSeconds()
        let current = fingerprint()
        let interval = interval
        let start = background.withLock { state -> Bool in
            guard !state.syncing,
                state.lastSync.map({ now - $0 >= interval }) ?? true || current != state.syncedFingerprint
            else { return false }
            state.syncing = true
            state.lastSync = now
            return true
        }
        guard start else { return }
        let syncer = context.session.syncer(context.session.remoteTarget(remote, kind: state.remoteKind))
        DispatchQueue.global().async { [self] in
            _ = try? syncer.sync()
            let after = fingerprint()
            background.withLock { state in
                state.syncing = false
                state.syncedFingerprint = after
            }
        }
    }

    func load() throws -> (tasks: [BoardTask], canUndo: Bool, canRedo: Bool, undoBlocked: Bool) {
        let board = try session.loadBoard()
        loadedBoard = board
        let undo = session.undoAvailability(on: board)
        return (board.tasks, undo.canUndo, undo.canRedo, undo.undoBlocked)
    }

    func perform(_ effect: BoardScreen.Effect) throws -> String {
        let say = context.sentences
        switch effect {
        case .move(let id, let target): return say.moved(try session.move(.id(id), to: target))
        case .delete(let id): return say.deleted(try session.delete(.id(id)))
        case .undo: return say.reverted(try session.undo(), redo: false)
        case .redo: return say.reverted(try session.redo(), redo: true)
        case .take(let id): return say.edited(try session.take(.id(id)))
        case .resolve(let id, let choice): return say.resolved(try session.resolve(id, field: choice.field, value: choice.value))
        case .save(let form): return try save(form)
        case .openEdit, .openConflicts, .filter, .quit: return ""
        }
    }

    /// Saves the form: a new card, or only the fields that changed (a
    /// colleague's change to another field meanwhile is kept).
    private func save(_ form: TaskForm) throws -> String {
        let say = context.sentences
        let due = form.due.trimmingWhiteSpace()
        // Names as `--to` takes them; an empty field is nobody.
        func names(_ text: String) throws -> [String] {
            text.contains(where: { !$0.isWhitespace }) ? try Assignees.names(text) : []
        }
        let assignees = try names(form.assignees)
        let labels = form.labels.contains(where: { !$0.isWhitespace }) ? try Labels.names(form.labels) : []
        let priority = form.priority.trimmingWhiteSpace()
        let chosen = priority.isEmpty ? nil : try PriorityNames.parse(priority, localizer: context.localizer)
        guard let id = form.task else {
            let deadline = due.isEmpty ? nil : try context.parseDeadline(due)
            let added = try session.add(
                title: form.title, body: form.body, due: deadline?.date, dueTime: deadline?.time, assignees: assignees,
                labels: labels, priority: chosen)
            let items = CardChange.checklist(from: [], to: TaskForm.checklistItems(form.checklist))
            _ = try session.change(.id(added.task.id), items)
            return say.added(added.task)
        }
        var edit = Board.Edit()
        if form.title != form.original[0] { edit.title = form.title }
        if form.body != form.original[1] { edit.body = form.body }
        if form.due != form.original[2] {
            let deadline = due.isEmpty ? nil : try context.parseDeadline(due)
            (edit.due, edit.dueTime) = (.some(deadline?.date), deadline?.time)
        }
        // Only the names taken off or added in the form: a colleague's assignment meanwhile stays.
        let before = try names(form.original[3])
        let adding = assignees.filter { !before.contains($0) }
        let removing = before.filter { !assignees.contains($0) }
        var sentences: [String] = []
        if edit.title != nil || edit.body != nil || edit.due != nil
            || adding.isEmpty && removing.isEmpty && form.texts.dropFirst(4) == form.original.dropFirst(4)
        {
            sentences.append(say.edited(try session.edit(.id(id), edit)))
        }
        if !adding.isEmpty || !removing.isEmpty {
            sentences.append(say.edited(try session.assign(.id(id), adding: adding, removing: removing)))
        }
        if let made = try session.change(.id(id), try cardChanges(form, labels: labels, priority: chosen)) {
            sentences.append(say.edited(made))
        }
        return sentences.joined(separator: " ")
    }

    /// What the form changed in the card's priority, labels and checklist:
    /// only those, so that a colleague's change to the rest meanwhile stays.
    private func cardChanges(_ form: TaskForm, labels: [String], priority: Priority?) throws -> [CardChange] {
        var changes: [CardChange] = []
        if form.priority != form.original[4] { changes.append(.priority(priority)) }
        let before = form.original[5].contains(where: { !$0.isWhitespace }) ? try Labels.names(form.original[5]) : []
        let (adding, removing) = (labels.filter { !before.contains($0) }, before.filter { !labels.contains($0) })
        if !adding.isEmpty || !removing.isEmpty { changes.append(.labels(adding: adding, removing: removing)) }
        if form.checklist != form.original[6] {
            changes += CardChange.checklist(from: form.items, to: TaskForm.checklistItems(form.checklist))
        }
        return changes
    }

    /// What a typed deadline means, or why it is not a date.
    static func checkDue(_ context: ProcessContext) -> @Sendable (String) -> (valid: Bool, text: String) {
        let localizer = context.localizer
        nonisolated(unsafe) let context = context
        return { text in
            guard let typed = try? context.parseDeadline(text) else { return (false, localizer.string(.boardFormBadDue)) }
            let shown = context.style(color: false).deadline(Deadline(date: typed.date, time: typed.time), localizer: localizer)
            return (true, localizer.string(.boardFormDueMeans, .text(shown)))
        }
    }

    func history(task: TaskID?, limit: Int) -> [BoardHistoryLine] {
        guard let events = try? session.store().recentHistory(limit: max(1, limit), task: task?.rawValue) else { return [] }
        let style = context.style(color: false)
        let view = HistoryView(localizer: context.localizer, style: style, reader: context.environment.user)
        let zone = context.environment.timeZone
        return events.map { event in
            let today =
                Timestamp.parse(event.at, zone: zone).map { Timestamp.civilDate(of: $0, in: zone) } == context.environment.today
            let day = Timestamp.parse(event.at, zone: zone).map { style.date(Timestamp.civilDate(of: $0, in: zone)) }
            return BoardHistoryLine(
                when: style.dateTime(event.at), shortWhen: today ? style.time(event.at) : day ?? style.dateTime(event.at),
                who: view.who(event), what: view.described(event))
        }
    }

    /// The filter as `pm list` has it: the text where `--grep` finds it (the
    /// reader's collation, case and accents ignored), "mine" as `pm remind`.
    func admits(_ task: BoardTask, _ filter: BoardScreen.Filter) -> Bool {
        if !fixed.admits(task, today: context.environment.today, now: context.environment.now()) { return false }
        if let view {
            if !view.filter.admits(task, today: context.environment.today, now: context.environment.now()) { return false }
            if !view.states.isEmpty, !view.states.contains(task.state) { return false }
            if let text = view.text, !textMatch.finds(text, in: task) { return false }
        }
        if filter.mine, session.remindable([task]).isEmpty { return false }
        guard !filter.text.isEmpty else { return true }
        return textMatch.finds(filter.text, in: task)
    }

    private lazy var textMatch = TextMatch(locale: context.formatLocale)

    /// The cards others changed since the reader last ran `pm news` (none
    /// before a first look): only what arrived since is read.
    func changedByOthers() -> Set<TaskID> {
        guard let board = loadedBoard else { return [] }
        return session.changedByOthers(on: board)
    }

    func status() -> BoardStatus {
        let l = context.localizer
        // The most useful first, each with a shorter wording for a narrow
        // terminal: the options the board was opened with, what others
        // changed since the reader last looked (and the command that shows
        // it), then the last sync and what waits to be sent.
        var parts: [BoardStatus.Part] = []
        if !typed.isEmpty { parts.append(.init(l.string(.boardFilteredBy, .text(typed.joined(separator: " "))))) }
        if let waiting = loadedBoard.flatMap({ session.newsWaiting(on: $0) }) {
            parts.append(
                .init(
                    l.plural(waiting.whole ? .newsWaiting : .newsWaitingAtLeast, count: waiting.count),
                    short: l.plural(.newsWaitingShort, count: waiting.count)))
        }
        // The sync state and what waits, read once for both wordings.
        guard let (state, waiting) = List.syncWaiting(context) else {
            return BoardStatus(link: .local, indicator: l.string(.boardLinkLocal), parts: parts)
        }
        let full = List.syncLine(context, state: state, waiting: waiting, style: context.style(color: false), saysOffline: false)
        let short =
            state.lastSync.map { l.plural(.boardSyncShort, count: waiting, .text(since($0))) }
            ?? l.plural(.boardSyncNeverShort, count: waiting)
        parts.append(.init(full, short: short))
        // A sync under way is said on the left, first; the link keeps what the last one found.
        if background.withLock({ $0.syncing }) { parts.insert(.init(l.string(.boardLinkSyncing)), at: 0) }
        if state.lastAttempt == nil {
            return BoardStatus(link: .syncing, indicator: l.string(.boardLinkSyncing), parts: parts)
        }
        if let at = state.wentOffline {
            return BoardStatus(link: .offline, indicator: l.string(.boardLinkOffline, .text(since(at))), parts: parts)
        }
        return BoardStatus(link: .online, indicator: l.string(.boardLinkOnline), parts: parts)
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

    func now() -> Date? { context.environment.now() }

    func reminders(_ tasks: [BoardTask]) -> [TaskID: String] {
        let style = context.style(color: false)
        let due = context.reminders.due(
            session.remindable(tasks), now: context.environment.now(), zone: context.environment.timeZone)
        let sentences = Sentences(localizer: context.localizer, style: style)
        return Dictionary(due.map { ($0.id, sentences.reminder($0)) }, uniquingKeysWith: { first, _ in first })
    }

    func fingerprint() -> String {
        guard let store = try? session.store().targetPath() else { return "" }
        let paths = [store, String(store.dropLast(store.hasSuffix(".json") ? 5 : 0)) + ".events.jsonl"]
        return paths.map { path -> String in
            var info = stat()
            guard stat(path, &info) == 0 else { return "-" }
            return "\(info.st_size):\(info.st_mtim.tv_sec):\(info.st_mtim.tv_nsec):\(info.st_ino)"
        }.joined(separator: "|")
    }

    func describe(_ error: Error) -> String {
        ErrorReport.describe(
            error, localizer: context.localizer, when: context.style(color: false).momentInSentence,
            reader: context.environment.user
        ).lines.joined(separator: " ")
    }
}
