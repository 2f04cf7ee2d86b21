/// A saved view's change, as undo sees it: its filter before and after
/// (nil: no view of that name).
public struct ViewTransition: Equatable, Sendable {
    public var name: String
    public var from: ViewFilter?
    public var to: ViewFilter?

    public init(name: String, from: ViewFilter?, to: ViewFilter?) {
        self.name = name
        self.from = from
        self.to = to
    }
}

extension Board {
    /// Reverts a saved view's change: the view must still hold the filter the
    /// change saved (or still be gone); it then gets the one it replaced back.
    mutating func revert(
        _ view: ViewTransition, of transition: Transition, eventID: TaskID, by user: String, at time: String, redo: Bool
    ) throws -> Transition {
        let current = views[view.name]
        guard current?.filter == view.to else {
            throw PMError.undoConflict(
                UndoConflict(
                    title: view.name, by: current?.by, at: current?.at, deleted: current == nil, redo: redo, view: true))
        }
        setView(
            view.name, to: view.from, eventID: eventID, by: user, at: time, undoes: redo ? nil : transition.eventID,
            redoes: redo ? transition.eventID : nil)
        return Transition(view: ViewTransition(name: view.name, from: view.to, to: view.from), eventID: eventID, at: time)
    }
}
