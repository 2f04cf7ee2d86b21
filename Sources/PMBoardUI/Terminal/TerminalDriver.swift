import FoundationEssentials
import PMCore

#if canImport(Glibc)
    import Glibc
#endif

/// What the board shows and how its changes are made: the command layer
/// implements it with the same store, lock, event log and undo as every
/// command, so the driver never writes a file itself.
public protocol BoardSource: AnyObject {
    /// The board as it is now, and whether undo and redo are available.
    func load() throws -> (tasks: [BoardTask], canUndo: Bool, canRedo: Bool, undoBlocked: Bool)
    /// Carries out an effect; returns a message for the status line.
    func perform(_ effect: BoardScreen.Effect) throws -> String
    /// The link to the remote and the last sync (the message is the driver's).
    func status() -> BoardStatus
    /// Something that changes whenever the board's files do (size, time).
    func fingerprint() -> String
    /// A message for an error, in the reader's language.
    func describe(_ error: Error) -> String
    /// History lines, newest first, in the reader's language: the board's, or one task's.
    func history(task: TaskID?, limit: Int) -> [BoardHistoryLine]
    /// Called about once a second: background work (sync with the remote).
    func tick()
    /// The viewer's date now: it changes at midnight in the viewer's time zone.
    func today() -> CivilDate
    /// The instant now, for deadlines with a time.
    func now() -> Date?
    /// The cards whose reminder is due now, each with the words that announce it.
    func reminders(_ tasks: [BoardTask]) -> [TaskID: String]
    /// Whether the board's filter lets `task` through (its text as `pm list
    /// --grep` matches it; "mine": the reader's own and the unassigned).
    func admits(_ task: BoardTask, _ filter: BoardScreen.Filter) -> Bool
    /// The cards others changed since the reader last looked (`pm news`).
    func changedByOthers() -> Set<TaskID>
    /// Whether the board was opened filtered (`pm board --mine`): then
    /// ``admits(_:_:)`` is asked of every card, the key filter or not.
    var openedFiltered: Bool { get }
    /// The cards in the order the board shows them.
    func ordered(_ tasks: [BoardTask]) -> [BoardTask]
}

extension BoardSource {
    /// The instant now, for deadlines with a time; nil: none is told apart from its day.
    public func now() -> Date? { nil }
    public func admits(_ task: BoardTask, _ filter: BoardScreen.Filter) -> Bool {
        filter.text.isEmpty || task.title.localizedStandardContainsFallback(filter.text)
    }
    public func changedByOthers() -> Set<TaskID> { [] }
    public var openedFiltered: Bool { false }
    public func ordered(_ tasks: [BoardTask]) -> [BoardTask] { BoardTask.byDeadline(tasks) }
}

extension String {
    /// Case-insensitive containment without ICU: a source that knows no better.
    func localizedStandardContainsFallback(_ other: String) -> Bool { lowercased().contains(other.lowercased()) }
}

/// The thin part that touches the terminal (DESIGN.md §11): raw mode, the
/// alternate screen, SGR mouse, bracketed paste, resize, and the terminal
/// restored on every way out (quit, Ctrl-C, SIGTERM, SIGHUP, an error).
public final class TerminalDriver {
    let source: BoardSource
    var renderer: BoardRenderer
    private var saved = termios()
    private var raw = false
    private var shown: Screen?
    private var state = BoardScreen(columns: [[], [], []])
    private var tasks: [TaskID: BoardTask] = [:]
    private var fingerprint = ""
    private var decoder = KeyDecoder()
    private var blocked = sigset_t()
    /// The status line: the link, the last sync, and the last action's message with when it was said.
    private var status = BoardStatus()
    private var messageSaid = 0.0
    /// Reminders due now, and whether they were looked at yet (the first look announces none).
    private var reminders: [TaskID: String] = [:]
    private var remindersKnown = false
    private var lastSlowTick = -Double.infinity
    /// Whether something on screen may have changed since the last draw.
    private var dirty = true

    /// How long an action's message stays before the sync state comes back.
    static let messageSeconds = 6.0

    /// Whether red may be used (not under `NO_COLOR`).
    let color: Bool

    public init(source: BoardSource, renderer: BoardRenderer, color: Bool = true) {
        self.source = source
        self.renderer = renderer
        self.color = color
        state.answers = BoardScreen.Answers(renderer.localizer)
    }

    /// Runs until the user quits or a signal ends it; the terminal is restored either way.
    public func run() throws {
        sigemptyset(&blocked)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGWINCH, SIGQUIT] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &blocked, nil) }
        try enter()
        defer { leave() }
        try reload()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var pending = siginfo_t()
            var zero = timespec(tv_sec: 0, tv_nsec: 0)
            let signal = sigtimedwait(&blocked, &pending, &zero)
            if signal == SIGWINCH {
                shown = nil
                dirty = true
            } else if signal > 0 {
                return
            }
            if Self.clock() - lastSlowTick >= 1 { slowTick() }
            if dirty { draw() }
            var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, 100)
            var keys: [Key] = []
            if ready > 0 {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count <= 0 { return }  // the terminal went away
                keys = decoder.feed(Array(buffer[0..<count]))
            } else if decoder.hasPending {
                keys = decoder.flushEscape()
            }
            for key in keys {
                dirty = true
                if case .mouse(let event) = key { handleMouse(event) }
                for effect in state.reduce(key) where !handle(effect) { return }
            }
            // Live: another process or a sync changed the board.
            if source.fingerprint() != fingerprint { try? reload() }
        }
    }

    /// Carries out one effect of a key; false to quit.
    private func handle(_ effect: BoardScreen.Effect) -> Bool {
        switch effect {
        case .quit: return false
        case .openEdit(let id):
            guard let task = tasks[id] else { return true }
            formTask = task
            var form = TaskForm(
                task: id, title: task.title, body: task.body, due: task.deadline?.typed ?? "",
                assignees: task.assignees.joined(separator: ", "), priority: renderer.cardMarks?(task).word ?? "",
                labels: task.labels.joined(separator: ", "), checklist: TaskForm.checklistText(task.checklist))
            form.items = task.checklist
            state.openForm(form)
            return true
        case .openConflicts(let id):
            state.openConflicts(id, choices: tasks[id].map(ConflictChoice.all) ?? [])
            return true
        case .filter:
            // Narrowed in memory: nothing is read again.
            showColumns(filtered: true)
            dirty = true
            return true
        default: break
        }
        let known = Set(tasks.keys)
        do {
            say(try source.perform(effect))
            if case .save = effect {
                state.closeForm()
                formTask = nil
            }
        } catch {
            say(source.describe(error))
        }
        try? reload()
        // A card just added is selected, as the apps did.
        if case .save(let form) = effect, form.task == nil, let added = tasks.keys.first(where: { !known.contains($0) }) {
            state.select(task: added)
        }
        return true
    }

    /// Puts a message on the status line for a few seconds.
    private func say(_ message: String) {
        status.message = message
        messageSaid = Self.clock()
        dirty = true
    }

    /// Once a second: background sync, the sync state, the date (a board
    /// left open past midnight turns yesterday's deadlines overdue), the
    /// reminders falling due, and an old message going away.
    private func slowTick() {
        lastSlowTick = Self.clock()
        source.tick()
        var next = source.status()
        next.message = lastSlowTick - messageSaid < Self.messageSeconds ? status.message : ""
        if next != status {
            status = next
            dirty = true
        }
        let today = source.today()
        if today != renderer.today {
            renderer.today = today
            dirty = true
        }
        // A deadline with a time becomes overdue at its minute.
        let now = source.now()
        if let now, let before = renderer.now, Int(now.timeIntervalSince1970 / 60) != Int(before.timeIntervalSince1970 / 60),
            tasks.values.contains(where: { $0.dueTime != nil })
        {
            dirty = true
        }
        renderer.now = now
        checkReminders()
    }

    /// Newly due reminders are announced on the status line, and their cards say "due today".
    private func checkReminders() {
        let due = source.reminders(Array(tasks.values))
        guard due.keys != reminders.keys else { return }
        let fresh = due.filter { reminders[$0.key] == nil }
        if remindersKnown, !fresh.isEmpty {
            say(fresh.sorted { $0.key < $1.key }.map(\.value).joined(separator: " "))
        }
        reminders = due
        remindersKnown = true
        dirty = true
    }

    /// Seconds on a clock that only moves forward.
    static func clock() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The task an edit form opened on, as it was: a change on disk is said in the form.
    private var formTask: BoardTask?
    /// The tasks in reading order, and what undo and redo can do, as last loaded.
    private var ordered: [BoardTask] = []
    private var undo = (canUndo: false, canRedo: false, blocked: false)

    /// The columns the filter lets through, from the tasks last loaded.
    private func showColumns(changed: Set<TaskID>? = nil, filtered: Bool = false) {
        let filter = state.filter
        let shown = filter.isActive || source.openedFiltered ? ordered.filter { source.admits($0, filter) } : ordered
        let columns = TaskState.allCases.map { state in shown.filter { $0.state == state }.map(\.id) }
        state.refresh(
            columns: columns, canUndo: undo.canUndo, canRedo: undo.canRedo, undoBlocked: undo.blocked,
            conflicted: Set(ordered.filter { !$0.conflicts.isEmpty }.map(\.id)), changedByOthers: changed,
            filtered: filtered)
    }

    private func reload() throws {
        let loaded = try source.load()
        tasks = Dictionary(loaded.tasks.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
        // The order of `pm list`: by deadline (none last), then as created.
        ordered = source.ordered(loaded.tasks)
        undo = (loaded.canUndo, loaded.canRedo, loaded.undoBlocked)
        showColumns(changed: source.changedByOthers())
        if let formTask { state.markFormChanged { id in id == formTask.id && tasks[id] != formTask } }
        fingerprint = source.fingerprint()
        if remindersKnown { checkReminders() }
        dirty = true
    }

    /// Mouse: a click selects the card under it; dragging it onto another
    /// column and letting go moves it there.
    private var dragging: TaskID?

    private func handleMouse(_ event: MouseEvent) {
        let (width, _) = Self.size()
        let columnWidth = (width - 4) / 3
        let column = min(2, event.x / max(1, columnWidth + 2))
        switch event.kind {
        case .press:
            let ids = state.columns[column]
            // Cards take a line, plus one per deadline or mark: find the one under the pointer.
            var y = 2
            for id in ids {
                let height = cardHeight(id)
                if event.y >= y && event.y < y + height {
                    state.select(task: id)
                    dragging = id
                    return
                }
                y += height
            }
            dragging = nil
        case .drag:
            // The column under the pointer is shown, and the status line says what letting go does.
            if let id = dragging { state.dragging(id, over: column) }
        case .release:
            state.endDrag()
            guard let id = dragging else { return }
            dragging = nil
            let target = TaskState.allCases[column]
            if tasks[id]?.state != target {
                do {
                    say(try source.perform(.move(id, to: target)))
                } catch {
                    say(source.describe(error))
                }
                try? reload()
            }
        default: break
        }
    }

    private func cardHeight(_ id: TaskID) -> Int {
        tasks[id].map(BoardRenderer.cardHeight) ?? 1
    }

    static func size() -> (Int, Int) {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
            return (Int(size.ws_col), Int(size.ws_row))
        }
        return (80, 24)
    }

    /// Draws what changed; nothing at all when the screen is the same (an
    /// idle board sends no byte, which matters over ssh).
    private func draw() {
        dirty = false
        let (width, height) = Self.size()
        var history: [BoardHistoryLine] = []
        if case .history(let task) = state.mode { history = source.history(task: task, limit: height) }
        let screen = renderer.render(
            state, tasks: tasks, width: width, height: height, status: status, history: history,
            reminders: Set(reminders.keys))
        if let shown, shown == screen { return }
        var out = screen.update(from: shown, color: color)
        if let cursor = screen.cursor {
            out += "\u{1B}[\(cursor.y + 1);\(cursor.x + 1)H\u{1B}[?25h"
        } else {
            out += "\u{1B}[?25l"
        }
        write(out)
        shown = screen
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    private func enter() throws {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { throw TerminalError.notATerminal }
        var settings = saved
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        settings.c_cflag |= tcflag_t(CS8)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) == 0 else { throw TerminalError.notATerminal }
        raw = true
        write("\u{1B}[?1049h\u{1B}[2J\u{1B}[?25l\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h\u{1B}[?2004h")
    }

    private func leave() {
        guard raw else { return }
        write("\u{1B}[?2004l\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        raw = false
    }
}

/// Why the board cannot open.
public enum TerminalError: Error, Equatable {
    /// Standard input is not a terminal.
    case notATerminal
}
