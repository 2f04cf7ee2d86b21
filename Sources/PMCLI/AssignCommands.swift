import ArgumentParser
import PMCore
import PMICU
import PMLocalization

/// `pm assign ID NAME...`: who does a card (DESIGN.md §13).
struct Assign: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "assign", abstract: help(.helpCommandAssign))
    }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @Argument(help: ArgumentHelp(help(.helpNames), valueName: "name")) var names: [String]
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.assign(id, adding: try names.flatMap { try Assignees.names($0) }, json: output.json)
    }
}

/// `pm unassign ID NAME...`.
struct Unassign: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "unassign", abstract: help(.helpCommandUnassign))
    }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @Argument(help: ArgumentHelp(help(.helpNames), valueName: "name")) var names: [String]
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.assign(id, removing: try names.flatMap { try Assignees.names($0, existing: true) }, json: output.json)
    }
}

/// `pm take ID`: assign yourself.
struct Take: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "take", abstract: help(.helpCommandTake))
    }

    @Argument(help: ArgumentHelp(help(.helpId))) var id: String
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.assign(id, adding: [try Assignees.validName(context.environment.user)], json: output.json)
    }
}

extension ProcessContext {
    /// Assigns or unassigns and says what it did (or that nothing changed).
    func assign(_ id: String, adding: [String] = [], removing: [String] = [], json: Bool) throws {
        let context = self
        var lookalikes: [(name: String, like: String)] = []
        let (task, made) = try change { board in
            lookalikes = ICUConfusables.lookalikes(of: adding, among: Set(board.tasks.flatMap(\.assignees)))
            return try context.assigned(
                try TaskLookup.find(id, in: board).id, adding: adding, removing: removing, in: &board)
        }
        output.line(json ? TaskJSON.object(task, today: environment.today) : editSentence(task, made))
        warnLookalikes(lookalikes)
    }

    /// A name new to the board that reads like one on it (`\u{430}lice`,
    /// `alice`): the card would not show in that person's `--mine`, `--to`
    /// or reminders. Said on stderr; the change stands (issue 43, item 10).
    func warnLookalikes(_ lookalikes: [(name: String, like: String)]) {
        for (name, like) in lookalikes {
            output.errorLine(
                localizer.string(
                    .assignLookalike, .text(TextSafety.escaped(name)), .text(TextSafety.escaped(like)),
                    .text(Self.codePoints(name))))
        }
    }

    /// `U+0430 U+006C …`: what tells two names apart that look alike.
    static func codePoints(_ name: String) -> String {
        name.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined(separator: " ")
    }

    /// Assigns and unassigns; returns the task and the history entry it
    /// made (nil: nothing changed), as ``edited(_:_:in:)`` does for an edit.
    func assigned(_ id: TaskID, adding: [String], removing: [String] = [], in board: inout Board) throws -> (
        BoardTask, HistoryEvent?
    ) {
        let known = board.history.appended.count
        let (_, after) = try board.assign(
            id, adding: adding, removing: removing, eventID: environment.makeID(), by: environment.user, at: now)
        return (after, board.history.appended.count > known ? board.history.appended.last : nil)
    }
}
