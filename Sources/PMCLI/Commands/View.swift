import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// `pm view save NAME [filters] | list | delete NAME`: the team's saved
/// views (DESIGN.md §17).
struct View: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "view", abstract: help(.helpCommandView), subcommands: [ViewSave.self, ViewList.self, ViewDelete.self],
            defaultSubcommand: ViewList.self)
    }
}

struct ViewSave: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "save", abstract: help(.helpCommandViewSave))
    }

    @Argument(help: ArgumentHelp(help(.helpViewName), valueName: "view")) var name: String
    @Option(name: .long, help: ArgumentHelp(help(.helpState))) var state: [String] = []
    @Option(name: .long, help: ArgumentHelp(help(.helpSort))) var sort: SortOrder?
    @Option(name: .long, help: ArgumentHelp(help(.helpGrep), valueName: "text")) var grep: String?
    @OptionGroup var filters: FilterOptions
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        var filter = ViewFilter()
        filter.states = try state.map { try StateNames.parse($0, localizer: context.localizer).rawValue }
        filter.labels = try filters.label.flatMap { try Labels.names($0, existing: true) }
        filter.priorities = try filters.priority.flatMap { $0.split(separator: ",").map(String.init) }.map {
            try PriorityNames.parse($0, localizer: context.localizer)?.rawValue ?? "none"
        }
        filter.to = try filters.to.flatMap { try Assignees.names($0, existing: true) }
        (filter.mine, filter.unassigned, filter.overdue) = (filters.mine, filters.unassigned, filters.overdue)
        filter.dueBefore = try filters.dueBefore.map { try Self.kept($0, context) }
        filter.dueAfter = try filters.dueAfter.map { try Self.kept($0, context) }
        (filter.text, filter.sort) = (grep, sort?.rawValue)
        let replaced = try context.session.saveView(name, filter)
        let shown = MessageArgument.text(TextSafety.escaped(try BoardSession.viewName(name)))
        context.output.line(
            context.localizer.string(replaced ? .viewReplaced : .viewSaved, shown, .text(Self.options(filter, context))))
    }

    /// A date as a view keeps it: a relative form every language reads as it
    /// is (`today`, `+7d`), anything else as the day it means now.
    static func kept(_ typed: String, _ context: ProcessContext) throws -> String {
        if ViewFilter.isDate(typed) { return typed }
        return try context.parseDate(typed).description
    }

    /// A filter as the options that make it (never translated).
    static func options(_ filter: ViewFilter, _ context: ProcessContext) -> String {
        var words: [String] = filter.states.map { "--state " + $0 }
        if filter.mine { words.append("--mine") }
        words += filter.to.map { "--to " + ShellWord.quoted(TextSafety.escaped($0)) }
        if filter.unassigned { words.append("--unassigned") }
        words += filter.labels.map { "--label " + ShellWord.quoted(TextSafety.escaped($0)) }
        words += filter.priorities.map { "--priority " + $0 }
        if filter.overdue { words.append("--overdue") }
        if let date = filter.dueBefore { words.append("--due-before " + date) }
        if let date = filter.dueAfter { words.append("--due-after " + date) }
        if let text = filter.text { words.append("--grep " + ShellWord.quoted(TextSafety.escaped(text))) }
        if let sort = filter.sort { words.append("--sort " + sort) }
        return words.isEmpty ? context.localizer.string(.viewEverything) : words.joined(separator: " ")
    }
}

struct ViewList: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "list", abstract: help(.helpCommandViewList))
    }

    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let views = try context.session.views().values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        if output.json {
            let value = JSONValue.array(
                views.map {
                    .object(["name": .string($0.name), "by": .string($0.by), "at": .string($0.at), "filter": $0.filter.value])
                })
            context.output.line(value.prettyJSON)
            return
        }
        guard !views.isEmpty else { return context.output.line(context.localizer.string(.viewNone)) }
        let style = context.style(color: false)
        for view in views {
            context.output.line(
                context.localizer.string(
                    .viewLine, .text(TextSafety.escaped(view.name)), .text(ViewSave.options(view.filter, context)),
                    .text(TextSafety.escaped(view.by)), .text(style.dateTime(view.at))))
        }
    }
}

struct ViewDelete: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "delete", abstract: help(.helpCommandViewDelete), aliases: ["rm"])
    }

    @Argument(help: ArgumentHelp(help(.helpViewName), valueName: "view")) var name: String
    @OptionGroup var common: CommonOptions

    func run(in context: ProcessContext) throws {
        try context.session.deleteView(name)
        context.output.line(context.localizer.string(.viewDeleted, .text(TextSafety.escaped(name))))
    }
}

/// A saved view as the filters of a list or a board.
struct AppliedView {
    var filter: TaskFilter
    var states: [TaskState]
    var text: String?
    var sort: SortOrder?

    init(_ name: String, _ context: ProcessContext) throws {
        let view = try context.session.view(name).filter
        var filter = TaskFilter(names: Set(view.to), unassigned: view.unassigned, overdue: view.overdue)
        if view.mine, let me = try? Assignees.validName(context.environment.user) { filter.names.insert(me) }
        if view.mine, filter.names.isEmpty, !view.unassigned { filter.names.insert("\u{0}") }  // nobody's: no card passes
        filter.dueBefore = try view.dueBefore.map(context.parseDate)
        filter.dueAfter = try view.dueAfter.map(context.parseDate)
        filter.labels = Set(view.labels)
        filter.priorities = Set(view.priorities.map { Priority(rawValue: $0) })
        self.filter = filter
        states = view.states.compactMap(TaskState.init(rawValue:))
        text = view.text
        sort = view.sort.flatMap(SortOrder.init(rawValue:))
    }
}
