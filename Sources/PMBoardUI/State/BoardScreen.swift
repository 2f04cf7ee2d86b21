import PMCore

/// The interactive board's state, pure (DESIGN.md §11; STYLE.md: `(state,
/// key) -> state`): the columns as task ids, the selection, what is open, and
/// whether undo and redo are available. The driver turns the effects the
/// reducer returns into store calls and feeds the new board back with
/// ``refresh(columns:canUndo:canRedo:)``.
public struct BoardScreen: Equatable, Sendable {
    /// What is open over the board.
    public enum Mode: Equatable, Sendable {
        case board
        /// The move menu (the apps' long-press popover): the other columns, one chosen.
        case moveMenu(task: TaskID, choices: [TaskState], chosen: Int)
        /// Delete asks first: No above Yes, No chosen; arrows choose, Enter answers.
        case confirmDelete(task: TaskID, yes: Bool)
        case help
        /// The history panel: the board's, or one task's (Tab switches).
        case history(task: TaskID?)
        /// The add or edit form.
        case form(TaskForm)
        /// A card's values in conflict after a sync: each field's shown value
        /// and the others kept, one chosen (DESIGN.md §9).
        case conflicts(task: TaskID, choices: [ConflictChoice], chosen: Int)
        /// Typing the filter's text (`/`): the board narrows as it is typed.
        case filter
    }

    /// What the driver must do.
    public enum Effect: Equatable, Sendable {
        case move(TaskID, to: TaskState)
        case delete(TaskID)
        case undo, redo
        case openEdit(TaskID)
        /// Open the conflict menu on a card (the driver has its values, see ``openConflicts(_:choices:)``).
        case openConflicts(TaskID)
        /// Keep this value of a field in conflict.
        case resolve(TaskID, ConflictChoice)
        /// Save the form (the driver closes it with ``closeForm()`` once saved).
        case save(TaskForm)
        /// The filter changed: the driver shows the cards it lets through.
        case filter(Filter)
        /// Assign the card to the reader (`pm take`).
        case take(TaskID)
        case quit
    }

    /// Task ids per column, in display order: TODO, DOING, DONE.
    public private(set) var columns: [[TaskID]]
    /// The selected column and row.
    public private(set) var column = 0
    public private(set) var row = 0
    public internal(set) var mode = Mode.board
    public private(set) var notice: Notice?
    /// What the board shows (the driver filters the columns it refreshes with).
    public internal(set) var filter = Filter()
    /// Cards others changed since the reader last looked (`pm news`): marked.
    public private(set) var changedByOthers: Set<TaskID> = []
    public var canUndo = false
    public var undoBlocked = false
    public var canRedo = false
    /// The cards with values in conflict (their key is offered on them).
    public private(set) var conflicted: Set<TaskID> = []
    public var selectedHasConflicts: Bool { selected.map(conflicted.contains) ?? false }
    /// What help closes back to: the board, or the question or menu it was opened over.
    public private(set) var underHelp = Mode.board
    /// A card being dragged, and the column under the pointer.
    public private(set) var drag: (task: TaskID, over: Int)?
    /// The keys that answer the delete question, in the reader's language
    /// (`o` for Oui in French; `ㅛ` for `y` under a Korean input method).
    public var answers = Answers()

    public struct Answers: Equatable, Sendable {
        public var yes: Set<Character>
        public var no: Set<Character>
        public init(yes: Set<Character> = ["y", "Y"], no: Set<Character> = ["n", "N"]) {
            self.yes = yes
            self.no = no
        }
    }

    public static func == (a: BoardScreen, b: BoardScreen) -> Bool {
        (a.columns, a.column, a.row, a.mode, a.notice, a.filter) == (b.columns, b.column, b.row, b.mode, b.notice, b.filter)
            && a.changedByOthers == b.changedByOthers
            && (a.canUndo, a.undoBlocked, a.canRedo, a.underHelp, a.answers, a.conflicted)
                == (b.canUndo, b.undoBlocked, b.canRedo, b.underHelp, b.answers, b.conflicted)
            && a.drag?.task == b.drag?.task && a.drag?.over == b.drag?.over
    }

    public init(columns: [[TaskID]]) {
        self.columns = columns + Array(repeating: [], count: max(0, 3 - columns.count))
    }

    /// The selected task, if the column has any.
    public var selected: TaskID? {
        let tasks = columns[column]
        return tasks.indices.contains(row) ? tasks[row] : nil
    }

    /// The board changed (a command of ours, another process, a sync): the
    /// selection stays on the same task wherever it went, else on the same
    /// place. After the filter changed (`filtered`), a selection left in a
    /// column the filter emptied goes to the nearest column that shows a
    /// card, so that the keys act on a card that is on screen (issue 44, item 9).
    public mutating func refresh(
        columns new: [[TaskID]], canUndo: Bool, canRedo: Bool, undoBlocked: Bool = false, conflicted: Set<TaskID> = [],
        changedByOthers: Set<TaskID>? = nil, filtered: Bool = false
    ) {
        let keep = selected
        self.conflicted = conflicted
        if let changedByOthers { self.changedByOthers = changedByOthers }
        columns = new + Array(repeating: [], count: max(0, 3 - new.count))
        (self.canUndo, self.canRedo, self.undoBlocked) = (canUndo, canRedo, undoBlocked)
        if let keep {
            for (index, tasks) in columns.enumerated() {
                if let position = tasks.firstIndex(of: keep) {
                    (column, row) = (index, position)
                    return
                }
            }
        }
        if filtered, columns[column].isEmpty,
            let nearest = columns.indices.filter({ !columns[$0].isEmpty }).min(by: { abs($0 - column) < abs($1 - column) })
        {
            column = nearest
        }
        row = min(row, max(0, columns[column].count - 1))
    }

    /// Applies a key; returns what the driver must do.
    public mutating func reduce(_ key: Key) -> [Effect] {
        notice = nil
        switch mode {
        case .board: return reduceBoard(key)
        case .moveMenu(let task, let choices, let chosen): return reduceMenu(key, task: task, choices: choices, chosen: chosen)
        case .confirmDelete(let task, let yes): return reduceConfirm(key, task: task, yes: yes)
        case .conflicts(let task, let choices, let chosen):
            return reduceConflicts(key, task: task, choices: choices, chosen: chosen)
        case .form(var form):
            // "Discard your changes?" takes the language's own yes.
            var key = key
            if form.confirmingDiscard, case .character(let c) = key, answers.yes.contains(c) { key = .character("y") }
            switch form.reduce(key) {
            case .close?: mode = .board
            case .save?:
                mode = .form(form)
                return [.save(form)]
            case nil: mode = .form(form)
            }
            return []
        case .history(let task):
            if key == .tab || key == .backTab {
                mode = .history(task: task == nil ? selected : nil)
            } else if key == .escape || KeyMap.action(for: key) == .quit || KeyMap.action(for: key) == .history {
                mode = .board
            }
            return []
        case .help:
            if key == .escape || KeyMap.action(for: key) == .quit || KeyMap.action(for: key) == .help {
                mode = underHelp
                underHelp = .board
            }
            return []
        case .filter: return reduceFilter(key)
        }
    }

    /// `?` over a question or menu: its keys are listed, and closing help goes back to it.
    private mutating func openHelp() {
        underHelp = mode
        mode = .help
    }

    mutating func reduceBoard(_ key: Key) -> [Effect] {
        if case .mouse(let event) = key { return mouse(event) }
        // Esc on a filtered board shows every card again.
        if key == .escape, filter.isActive {
            filter = Filter()
            return [.filter(filter)]
        }
        guard let action = KeyMap.action(for: key) else { return [] }
        switch action {
        case .selectLeft: select(column: column - 1)
        case .selectRight: select(column: column + 1)
        case .selectUp: row = max(0, row - 1)
        case .selectDown: row = min(max(0, columns[column].count - 1), row + 1)
        case .column1: select(column: 0)
        case .column2: select(column: 1)
        case .column3: select(column: 2)
        case .moveLeft, .moveRight: return moveSelected(by: action == .moveLeft ? -1 : 1)
        case .moveMenu:
            guard let task = requireSelection() else { return [] }
            let choices = TaskState.allCases.enumerated().filter { $0.offset != column }.map(\.element)
            mode = .moveMenu(task: task, choices: choices, chosen: 0)
        case .add: mode = .form(TaskForm())
        case .edit:
            guard let task = requireSelection() else { return [] }
            return [.openEdit(task)]
        case .delete:
            guard let task = requireSelection() else { return [] }
            mode = .confirmDelete(task: task, yes: false)
        case .undo:
            guard canUndo, !undoBlocked else {
                notice = undoBlocked ? .undoBlocked : .nothingToUndo
                return []
            }
            return [.undo]
        case .redo:
            guard canRedo else {
                notice = .nothingToRedo
                return []
            }
            return [.redo]
        case .conflicts:
            guard let task = requireSelection() else { return [] }
            return [.openConflicts(task)]
        case .history: mode = .history(task: nil)
        case .filter: mode = .filter
        case .mine:
            filter.mine.toggle()
            return [.filter(filter)]
        case .take:
            guard let task = requireSelection() else { return [] }
            return [.take(task)]
        case .help: openHelp()
        case .quit: return [.quit]
        }
        return []
    }

    /// The selected card; nil, with a notice saying so, when none is.
    private mutating func requireSelection() -> TaskID? {
        guard let task = selected else {
            notice = .nothingSelected
            return nil
        }
        return task
    }

    /// Moves the selected card to the column `step` away (-1: left, 1: right).
    private mutating func moveSelected(by step: Int) -> [Effect] {
        guard let task = requireSelection() else { return [] }
        let target = column + step
        guard TaskState.allCases.indices.contains(target) else {
            notice = .noColumnThatWay
            return []
        }
        return [.move(task, to: TaskState.allCases[target])]
    }

    private mutating func select(column target: Int) {
        column = min(max(0, target), columns.count - 1)
        row = min(row, max(0, columns[column].count - 1))
    }

    private mutating func reduceMenu(_ key: Key, task: TaskID, choices: [TaskState], chosen: Int) -> [Effect] {
        switch Self.answerKey(key) {
        case .escape, .character("q"):
            mode = .board
        case .character("?"):
            openHelp()
        case .up, .left, .backTab:
            mode = .moveMenu(task: task, choices: choices, chosen: max(0, chosen - 1))
        case .down, .right, .tab:
            mode = .moveMenu(task: task, choices: choices, chosen: min(choices.count - 1, chosen + 1))
        case .enter:
            mode = .board
            return [.move(task, to: choices[chosen])]
        default:
            // A column's number (AZERTY digits too) picks it at once.
            if case .character(let character) = key, let digit = (KeyMap.azertyDigit(character) ?? character).wholeNumberValue,
                TaskState.allCases.indices.contains(digit - 1), choices.contains(TaskState.allCases[digit - 1])
            {
                mode = .board
                return [.move(task, to: TaskState.allCases[digit - 1])]
            }
        }
        return []
    }

    /// The delete question: the arrows (and `hjkl`, Tab) go between No and
    /// Yes, Enter answers the one chosen, the language's own letters answer
    /// at once, Escape or `q` cancel, `?` lists these keys; any other key is
    /// ignored, so a stray key neither deletes nor silently cancels.
    private mutating func reduceConfirm(_ key: Key, task: TaskID, yes: Bool) -> [Effect] {
        if case .character(let character) = key {
            if answers.yes.contains(character) {
                mode = .board
                return [.delete(task)]
            }
            if answers.no.contains(character) {
                mode = .board
                return []
            }
        }
        switch Self.answerKey(key) {
        case .up: mode = .confirmDelete(task: task, yes: false)
        case .down: mode = .confirmDelete(task: task, yes: true)
        case .left, .right, .tab, .backTab: mode = .confirmDelete(task: task, yes: !yes)
        case .enter:
            mode = .board
            return yes ? [.delete(task)] : []
        case .escape, .character("q"): mode = .board
        case .character("?"): openHelp()
        default: break
        }
        return []
    }

    /// A key in a question or menu: `hjkl` (and the jamo on them) as arrows.
    static func answerKey(_ key: Key) -> Key {
        switch KeyMap.action(for: key) {
        case .selectLeft?: return .left
        case .selectRight?: return .right
        case .selectUp?: return .up
        case .selectDown?: return .down
        case .quit?: return .character("q")
        default: return key
        }
    }

    private mutating func reduceConflicts(_ key: Key, task: TaskID, choices: [ConflictChoice], chosen: Int) -> [Effect] {
        switch Self.answerKey(key) {
        case .escape, .character("q"): mode = .board
        case .character("?"): openHelp()
        case .up, .left, .backTab: mode = .conflicts(task: task, choices: choices, chosen: max(0, chosen - 1))
        case .down, .right, .tab: mode = .conflicts(task: task, choices: choices, chosen: min(choices.count - 1, chosen + 1))
        case .enter:
            mode = .board
            return choices.indices.contains(chosen) ? [.resolve(task, choices[chosen])] : []
        default: break
        }
        return []
    }

    /// Opens the conflict menu with a card's values; a card without conflicts says so.
    public mutating func openConflicts(_ task: TaskID, choices: [ConflictChoice]) {
        guard !choices.isEmpty else {
            notice = .noConflict
            return
        }
        mode = .conflicts(task: task, choices: choices, chosen: 0)
    }

    /// Mouse: a click selects the card under it (the driver maps rows and
    /// columns of the screen to cards and calls ``select(task:)``).
    private mutating func mouse(_ event: MouseEvent) -> [Effect] {
        switch event.kind {
        case .wheelUp: row = max(0, row - 1)
        case .wheelDown: row = min(max(0, columns[column].count - 1), row + 1)
        default: break
        }
        return []
    }

    /// A card is dragged over column `over` (the driver follows the mouse).
    public mutating func dragging(_ task: TaskID, over column: Int) { drag = (task, min(max(0, column), 2)) }

    /// The drag ended (dropped or left).
    public mutating func endDrag() { drag = nil }

    /// Opens the edit form on `task` (the driver has its fields).
    public mutating func openForm(_ form: TaskForm) { mode = .form(form) }

    /// The form was saved: back to the board.
    public mutating func closeForm() {
        if case .form = mode { mode = .board }
    }

    /// The task a form is open on changed on disk: the form says so.
    public mutating func markFormChanged(if changed: (TaskID) -> Bool) {
        guard case .form(var form) = mode, let task = form.task, changed(task) else { return }
        form.changedUnderneath = true
        mode = .form(form)
    }

    /// Selects a task by id (a click, or a card found by the driver).
    public mutating func select(task: TaskID) {
        for (index, tasks) in columns.enumerated() {
            if let position = tasks.firstIndex(of: task) { (column, row) = (index, position) }
        }
    }
}
