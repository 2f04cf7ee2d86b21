import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization

/// The filters every view of the board takes (DESIGN.md §13): `pm list` and
/// its `--json`, `pm export ics`. People are alternatives (`--mine --unassigned`:
/// what I could pick up); the other filters all hold.
struct FilterOptions: ParsableArguments {
    @Flag(name: .long, help: ArgumentHelp(help(.helpMine))) var mine = false
    @Option(name: .customLong("to"), help: ArgumentHelp(help(.helpToFilter), valueName: "name")) var to: [String] = []
    @Flag(name: .long, help: ArgumentHelp(help(.helpUnassigned))) var unassigned = false
    @Flag(name: .long, help: ArgumentHelp(help(.helpOverdue))) var overdue = false
    @Option(name: .customLong("due-before"), help: ArgumentHelp(help(.helpDueBefore), valueName: "date")) var dueBefore: String?
    @Option(name: .customLong("due-after"), help: ArgumentHelp(help(.helpDueAfter), valueName: "date")) var dueAfter: String?

    /// The filter, dates read as `--due` reads them (in the reader's language).
    func filter(_ context: ProcessContext) throws -> TaskFilter {
        var names = Set(try to.flatMap { try Assignees.names($0, existing: true) })
        if mine { names.insert(try Assignees.validName(context.environment.user)) }
        return TaskFilter(
            names: names, unassigned: unassigned, overdue: overdue, dueBefore: try dueBefore.map(context.parseDate),
            dueAfter: try dueAfter.map(context.parseDate))
    }

    /// The board with only the tasks the filter lets through.
    func filteredBoard(_ context: ProcessContext) throws -> Board {
        let filter = try self.filter(context)
        var board = try context.session.loadBoard()
        let today = context.environment.today
        if !filter.isEmpty { board.tasks = board.tasks.filter { filter.admits($0, today: today) } }
        return board
    }

    /// Whether any filter was given.
    var isFiltering: Bool { !typed.isEmpty }

    /// The options as typed, for the line that says a view is filtered
    /// (option names are never translated; values are shown escaped).
    var typed: [String] {
        var words: [String] = []
        if mine { words.append("--mine") }
        for name in to { words.append("--to " + TextSafety.escaped(name)) }
        if unassigned { words.append("--unassigned") }
        if overdue { words.append("--overdue") }
        if let dueBefore { words.append("--due-before " + TextSafety.escaped(dueBefore)) }
        if let dueAfter { words.append("--due-after " + TextSafety.escaped(dueAfter)) }
        return words
    }
}
