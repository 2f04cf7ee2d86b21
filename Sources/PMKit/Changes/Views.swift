import PMCore

/// The team's saved views (DESIGN.md §17): named filters stored with the board.
extension BoardSession {
    /// A view's name as kept: the rules of a label.
    /// - Throws: ``PMError/badViewName(_:)``.
    public static func viewName(_ typed: String) throws -> String {
        do { return try Assignees.validName(typed) } catch { throw PMError.badViewName(typed) }
    }

    /// Saves `filter` as view `name`, replacing one of that name.
    /// - Returns: whether a view of that name was replaced.
    @discardableResult
    public func saveView(_ name: String, _ filter: ViewFilter) throws -> Bool {
        let name = try Self.viewName(name)
        let env = environment
        return try change { board in
            let replaced = board.views[name] != nil
            if !replaced, board.views.count >= SavedView.boardLimit { throw PMError.tooMany(.views, limit: SavedView.boardLimit) }
            board.setView(name, to: filter, eventID: env.makeID(), by: env.user, at: now)
            return replaced
        }
    }

    /// Deletes view `name`.
    /// - Throws: ``PMError/viewNotFound(_:)`` when there is none.
    public func deleteView(_ name: String) throws {
        let env = environment
        try change { board in
            let kept = try Assignees.keptName(name)
            guard board.views[kept] != nil else { throw PMError.viewNotFound(name) }
            board.setView(kept, to: nil, eventID: env.makeID(), by: env.user, at: now)
        }
    }

    /// The saved views, by name.
    public func views() throws -> [String: SavedView] { try loadBoard().views }

    /// The view named `name`.
    /// - Throws: ``PMError/viewNotFound(_:)``.
    public func view(_ name: String) throws -> SavedView {
        let views = try self.views()
        guard let kept = try? Assignees.keptName(name), let view = views[kept] else { throw PMError.viewNotFound(name) }
        return view
    }
}
