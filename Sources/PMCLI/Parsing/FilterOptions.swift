import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

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
    @Option(name: .customLong("label"), help: ArgumentHelp(help(.helpLabelFilter), valueName: "label")) var label: [String] = []
    @Option(name: .customLong("priority"), help: ArgumentHelp(help(.helpPriorityFilter), valueName: "priority"))
    var priority: [String] = []

    /// The filter, dates read as `--due` reads them (in the reader's language).
    func filter(_ context: ProcessContext) throws -> TaskFilter {
        var names = Set(try to.flatMap { try Assignees.names($0, existing: true) })
        if mine { names.insert(try Assignees.validName(context.environment.user)) }
        var filter = TaskFilter(
            names: names, unassigned: unassigned, overdue: overdue, dueBefore: try dueBefore.map(context.parseDate),
            dueAfter: try dueAfter.map(context.parseDate))
        filter.labels = Set(try label.flatMap { try Labels.names($0, existing: true) })
        for word in priority.flatMap({ $0.split(separator: ",").map(String.init) }) {
            filter.priorities.insert(try PriorityNames.parse(word, localizer: context.localizer))
        }
        return filter
    }

    /// The board with only the tasks the filter lets through.
    func filteredBoard(_ context: ProcessContext) throws -> Board {
        let filter = try self.filter(context)
        var board = try context.session.loadBoard()
        let today = context.environment.today
        if !filter.isEmpty {
            board.tasks = board.tasks.filter { filter.admits($0, today: today, now: context.environment.now()) }
        }
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
        for name in label { words.append("--label " + TextSafety.escaped(name)) }
        for name in priority { words.append("--priority " + TextSafety.escaped(name)) }
        return words
    }
}
