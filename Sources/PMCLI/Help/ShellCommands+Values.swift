import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// What the board offers to complete: ids, names, labels.
extension Completer {
    /// The board's short ids with their titles (and the column of a done one).
    func ids(_ current: String, done: Bool) -> [Candidate] {
        guard let context = try? ProcessContext.live(boardOverride: self.board), let board = try? context.session.store().load()
        else {
            return []
        }
        let shortIDs = TaskLookup.shortIDs(for: board.tasks)
        return board.tasks.compactMap { task in
            guard let id = shortIDs[task.id], id.hasPrefix(current.lowercased()), done || task.state != .done else { return nil }
            let title = TextSafety.escaped(task.title)
            return .word(id, description: task.state == .done ? title + " (" + localizer.string(.columnDone) + ")" : title)
        }
    }

    /// The names seen on the board (its tasks' assignees) and the reader's
    /// own, for `--to`, `assign` and `unassign`: each once, in byte order.
    func names(_ current: String) -> [Candidate] {
        guard let context = try? ProcessContext.live(boardOverride: self.board) else { return [] }
        var seen = Set<String>()
        if let board = try? context.session.store().load() {
            for task in board.tasks { seen.formUnion(task.assignees) }
        }
        if let own = try? Assignees.validName(context.environment.user) { seen.insert(own) }
        return Assignees.sorted(seen).filter { $0.hasPrefix(current) }.map { .word(TextSafety.escaped($0), description: "") }
    }

    /// The labels on the board's cards, each once, in byte order.
    func labels(_ current: String) -> [Candidate] {
        guard let context = try? ProcessContext.live(boardOverride: self.board),
            let board = try? context.session.store().load()
        else { return [] }
        var seen = Set<String>()
        for task in board.tasks { seen.formUnion(task.labels) }
        return Assignees.sorted(seen).filter { $0.hasPrefix(current) }.map { .word(TextSafety.escaped($0), description: "") }
    }
}
