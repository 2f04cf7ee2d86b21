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
        /// Delete asks first; No is the default.
        case confirmDelete(task: TaskID, yes: Bool)
        case help
        /// The history panel: the board's, or one task's (Tab switches).
        case history(task: TaskID?)
        /// The add or edit form.
        case form(TaskForm)
    }

    /// Why a key did nothing: said in the status line (a dimmed key says why when pressed).
    public enum Notice: Equatable, Sendable {
        case nothingSelected, nothingToUndo, nothingToRedo, undoBlocked, noColumnThatWay
    }

    /// What the driver must do.
    public enum Effect: Equatable, Sendable {
        case move(TaskID, to: TaskState)
        case delete(TaskID)
        case undo, redo
        case openEdit(TaskID)
        /// Save the form (the driver closes it with ``closeForm()`` once saved).
        case save(TaskForm)
        case quit
    }

    /// Task ids per column, in display order: TODO, DOING, DONE.
    public private(set) var columns: [[TaskID]]
    /// The selected column and row.
    public private(set) var column = 0
    public private(set) var row = 0
    public private(set) var mode = Mode.board
    public private(set) var notice: Notice?
    public var canUndo = false
    public var undoBlocked = false
    public var canRedo = false

    public init(columns: [[TaskID]]) {
        self.columns = columns + Array(repeating: [], count: max(0, 3 - columns.count))
    }

    /// The selected task, if the column has any.
    public var selected: TaskID? {
        let tasks = columns[column]
        return tasks.indices.contains(row) ? tasks[row] : nil
    }

    /// The board changed (a command of ours, another process, a sync): the
    /// selection stays on the same task wherever it went, else on the same place.
    public mutating func refresh(columns new: [[TaskID]], canUndo: Bool, canRedo: Bool, undoBlocked: Bool = false) {
        let keep = selected
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
        row = min(row, max(0, columns[column].count - 1))
    }

    /// Applies a key; returns what the driver must do.
    public mutating func reduce(_ key: Key) -> [Effect] {
        notice = nil
        switch mode {
        case .board: return reduceBoard(key)
        case .moveMenu(let task, let choices, let chosen): return reduceMenu(key, task: task, choices: choices, chosen: chosen)
        case .confirmDelete(let task, let yes): return reduceConfirm(key, task: task, yes: yes)
        case .form(var form):
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
            if key == .escape || KeyMap.action(for: key) == .quit || KeyMap.action(for: key) == .help { mode = .board }
            return []
        }
    }

    private mutating func reduceBoard(_ key: Key) -> [Effect] {
        if case .mouse(let event) = key { return mouse(event) }
        guard let action = KeyMap.action(for: key) else { return [] }
        switch action {
        case .selectLeft: select(column: column - 1)
        case .selectRight: select(column: column + 1)
        case .selectUp: row = max(0, row - 1)
        case .selectDown: row = min(max(0, columns[column].count - 1), row + 1)
        case .column1: select(column: 0)
        case .column2: select(column: 1)
        case .column3: select(column: 2)
        case .moveLeft, .moveRight:
            guard let task = selected else {
                notice = .nothingSelected
                return []
            }
            let target = column + (action == .moveLeft ? -1 : 1)
            guard TaskState.allCases.indices.contains(target) else {
                notice = .noColumnThatWay
                return []
            }
            return [.move(task, to: TaskState.allCases[target])]
        case .moveMenu:
            guard let task = selected else {
                notice = .nothingSelected
                return []
            }
            let choices = TaskState.allCases.enumerated().filter { $0.offset != column }.map(\.element)
            mode = .moveMenu(task: task, choices: choices, chosen: 0)
        case .add: mode = .form(TaskForm())
        case .edit:
            guard let task = selected else {
                notice = .nothingSelected
                return []
            }
            return [.openEdit(task)]
        case .delete:
            guard let task = selected else {
                notice = .nothingSelected
                return []
            }
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
        case .history: mode = .history(task: nil)
        case .help: mode = .help
        case .quit: return [.quit]
        }
        return []
    }

    private mutating func select(column target: Int) {
        column = min(max(0, target), columns.count - 1)
        row = min(row, max(0, columns[column].count - 1))
    }

    private mutating func reduceMenu(_ key: Key, task: TaskID, choices: [TaskState], chosen: Int) -> [Effect] {
        switch key {
        case .escape, .character("q"):
            mode = .board
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

    private mutating func reduceConfirm(_ key: Key, task: TaskID, yes: Bool) -> [Effect] {
        switch key {
        case .character("y"), .character("Y"), .character("ㅛ"):
            mode = .board
            return [.delete(task)]
        case .left, .right, .tab, .backTab:
            mode = .confirmDelete(task: task, yes: !yes)
        case .enter:
            mode = .board
            return yes ? [.delete(task)] : []
        default:
            // No, Escape, or anything else: nothing is deleted.
            mode = .board
        }
        return []
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
