import ArgumentParser

/// The commands run most often, read without ArgumentParser: its parse
/// builds every option's definition through the runtime's type metadata
/// and reflection, a third of a whole `pm add` (BENCH.md). Only a command
/// line made of the command's own positionals, `--option value` pairs and
/// flags, each once, is read here; anything else (help, `--opt=value`, a
/// value that starts with `-`, `--`, a mistake) returns nil and goes the
/// whole way, so that every message and exit code stays ArgumentParser's.
/// `QuickParseTests` checks that what is read here is what it reads.
enum QuickParse {
    /// A command line split by the command's option and flag names.
    struct Words {
        var positionals: [String] = []
        var values: [String: [String]] = [:]
        var flags: Set<String> = []

        func value(_ name: String) -> String? { values[name]?.last }

        var common: CommonOptions {
            var common = CommonOptions()
            common.board = value("--board")
            return common
        }

        var json: JSONOption {
            var option = JSONOption()
            option.json = flags.contains("--json")
            return option
        }

        /// The filters of a view of the board (every property set: a group
        /// made here is never decoded by ArgumentParser).
        var filters: FilterOptions {
            var options = FilterOptions()
            (options.mine, options.unassigned, options.overdue) = (
                flags.contains("--mine"), flags.contains("--unassigned"), flags.contains("--overdue")
            )
            (options.to, options.dueBefore, options.dueAfter) = (
                values["--to"] ?? [], value("--due-before"), value("--due-after")
            )
            (options.label, options.priority) = (values["--label"] ?? [], values["--priority"] ?? [])
            return options
        }

        /// `--color`, or nil for a value that is not one of its words.
        var colors: ColorOption? {
            var option = ColorOption()
            guard let mode = value("--color").map(ColorMode.init(rawValue:)) ?? .auto else { return nil }
            option.color = mode
            return option
        }
    }

    /// The command `arguments` name, read here, or nil to read it the whole way.
    static func command(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first else { return nil }
        let rest = arguments.dropFirst()
        switch name {
        case "add": return add(rest)
        case "list", "ls": return list(rest)
        case "show": return show(rest)
        case "edit": return edit(rest)
        case "move": return move(rest)
        case "start", "done", "delete", "rm":
            guard let w = words(rest, 1) else { return nil }
            return idCommand(name, id: w.positionals[0], common: w.common, output: w.json)
        case "history": return history(rest)
        case "undo": return undo(rest)
        case "redo": return redo(rest)
        default: return nil
        }
    }

    /// The words after the command, split by its options and flags (and
    /// `--board`, `--json`), when there are `positionals` others.
    private static func words(
        _ rest: ArraySlice<String>, _ positionals: Int, options: Set<String> = [], flags: Set<String> = [],
        repeatable: Set<String> = []
    ) -> Words? {
        guard
            let words = split(
                rest, options: options.union(["--board"]), flags: flags.union(["--json"]), repeatable: repeatable),
            words.positionals.count == positionals
        else { return nil }
        return words
    }

    /// `pm add TITLE [--body B] [--due D] [--to NAME]… [--label L]… [--priority P] [--every R]`
    private static func add(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard
            let w = words(
                rest, 1, options: ["--body", "--due", "--to", "--label", "--priority", "--every"],
                repeatable: ["--to", "--label"])
        else { return nil }
        var command = Add()
        (command.title, command.body, command.due) = (w.positionals[0], w.value("--body") ?? "", w.value("--due"))
        (command.to, command.label, command.priority) = (w.values["--to"] ?? [], w.values["--label"] ?? [], w.value("--priority"))
        command.every = w.value("--every")
        (command.common, command.output) = (w.common, w.json)
        return command
    }

    /// `pm list` and its filters, sort and colours.
    private static func list(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard
            let w = words(
                rest, 0,
                options: [
                    "--state", "--sort", "--grep", "--color", "--to", "--due-before", "--due-after", "--label", "--priority",
                    "--view",
                ],
                flags: ["--mine", "--unassigned", "--overdue"], repeatable: ["--state", "--to", "--label", "--priority"]),
            let colors = w.colors, w.value("--sort").map({ SortOrder(rawValue: $0) != nil }) ?? true
        else { return nil }
        let sort = w.value("--sort").flatMap(SortOrder.init(rawValue:))
        var command = List()
        (command.state, command.sort, command.grep) = (w.values["--state"] ?? [], sort, w.value("--grep"))
        command.view = w.value("--view")
        (command.common, command.output, command.colors, command.filters) = (w.common, w.json, colors, w.filters)
        return command
    }

    /// `pm show ID [--color WHEN]`
    private static func show(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard let w = words(rest, 1, options: ["--color"]), let colors = w.colors else { return nil }
        var command = Show()
        command.id = w.positionals[0]
        (command.common, command.output, command.colors) = (w.common, w.json, colors)
        return command
    }

    /// `pm edit ID [--title T] [--body B] [--due D | --no-due] [--priority P]`
    private static func edit(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard let w = words(rest, 1, options: ["--title", "--body", "--due", "--priority"], flags: ["--no-due"]) else {
            return nil
        }
        var command = Edit()
        (command.id, command.title, command.body) = (w.positionals[0], w.value("--title"), w.value("--body"))
        command.priority = w.value("--priority")
        (command.due, command.noDue) = (w.value("--due"), w.flags.contains("--no-due"))
        (command.common, command.output) = (w.common, w.json)
        return command
    }

    /// `pm move ID STATE`
    private static func move(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard let w = words(rest, 2) else { return nil }
        var command = Move()
        (command.id, command.state, command.common, command.output) = (w.positionals[0], w.positionals[1], w.common, w.json)
        return command
    }

    /// `pm history [--limit N] [--task ID] [--color WHEN]`
    private static func history(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard let w = words(rest, 0, options: ["--limit", "--task", "--color"]), let colors = w.colors,
            let limit = w.value("--limit").map({ Int($0) }) ?? 20
        else { return nil }
        var command = History()
        (command.limit, command.task, command.common, command.output, command.colors) = (
            limit, w.value("--task"), w.common, w.json, colors
        )
        return command
    }

    /// `pm undo [--skip]`
    private static func undo(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard let w = words(rest, 0, flags: ["--skip"]) else { return nil }
        var command = Undo()
        (command.skip, command.common, command.output) = (w.flags.contains("--skip"), w.common, w.json)
        return command
    }

    /// `pm redo`
    private static func redo(_ rest: ArraySlice<String>) -> ParsableCommand? {
        guard let w = words(rest, 0) else { return nil }
        var command = Redo()
        (command.common, command.output) = (w.common, w.json)
        return command
    }

    private static func idCommand(_ name: String, id: String, common: CommonOptions, output: JSONOption) -> ParsableCommand {
        switch name {
        case "start":
            var command = Start()
            (command.id, command.common, command.output) = (id, common, output)
            return command
        case "done":
            var command = Done()
            (command.id, command.common, command.output) = (id, common, output)
            return command
        default:
            var command = Delete()
            (command.id, command.common, command.output) = (id, common, output)
            return command
        }
    }

    /// The words split by `options` (each takes the next word as its value)
    /// and `flags`; nil for anything this reading does not take.
    static func split(_ words: ArraySlice<String>, options: Set<String>, flags: Set<String>, repeatable: Set<String>)
        -> Words?
    {
        var result = Words()
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            if word.hasPrefix("-") {
                if options.contains(word) {
                    let next = index + 1
                    guard next < words.endIndex, !words[next].hasPrefix("-"),
                        result.values[word] == nil || repeatable.contains(word)
                    else { return nil }
                    result.values[word, default: []].append(words[next])
                    index += 2
                    continue
                }
                guard flags.contains(word), result.flags.insert(word).inserted else { return nil }
            } else {
                // `help` may be ArgumentParser's own word.
                guard word != "help" else { return nil }
                result.positionals.append(word)
            }
            index += 1
        }
        return result
    }
}
