import ArgumentParser
import PMCore
import PMKit
import PMLocalization

/// `pm check ID ACTION …`: a card's checklist, item by item (DESIGN.md §17).
struct Check: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "check", abstract: help(.helpCommandCheck))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpCheckAction), valueName: "action")) var action: String
    @Argument(help: ArgumentHelp(help(.helpCheckWords), valueName: "words")) var words: [String] = []
    @Option(help: ArgumentHelp(help(.helpBefore), valueName: "n")) var before: String?
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        try context.changeCard(id, try change(in: context), json: output.json)
    }

    /// The change the words ask for; a place is checked against the card.
    private func change(in context: ProcessContext) throws -> CardChange {
        func words(_ count: Int) throws -> [String] {
            guard self.words.count == count else { throw CLIError.checkArguments(action) }
            return self.words
        }
        if before != nil && action != "add" { throw CLIError.checkArguments(action) }
        switch action {
        case "add": return .addItem(text: try words(1)[0], before: before)
        case "done": return .tick(try words(1)[0], done: true)
        case "undone": return .tick(try words(1)[0], done: false)
        case "remove", "rm": return .removeItem(try words(1)[0])
        case "rename": return .renameItem(try words(2)[0], text: try words(2)[1])
        case "move":
            let (item, place) = (try words(2)[0], try words(2)[1])
            let count = try context.session.store().withFewTasks { board in
                try TaskLookup.find(id, in: board ?? context.session.emptyBoard()).checklist.count
            }
            guard let number = Int(place), number >= 1, number <= max(count, 1) else {
                throw CLIError.checkPlace(place, count: count)
            }
            return .moveItem(item, to: number)
        default: throw CLIError.checkAction(action)
        }
    }
}

/// `pm comment ID TEXT`, `--edit N TEXT`, `--withdraw N`.
struct CommentCommand: PMCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "comment", abstract: help(.helpCommandComment))
    }

    @Argument(help: ArgumentHelp(help(.helpID))) var id: String
    @Argument(help: ArgumentHelp(help(.helpCommentText), valueName: "text")) var text: String?
    @Option(help: ArgumentHelp(help(.helpCommentEdit), valueName: "n")) var edit: String?
    @Option(help: ArgumentHelp(help(.helpCommentWithdraw), valueName: "n")) var withdraw: String?
    @OptionGroup var common: CommonOptions
    @OptionGroup var output: JSONOption

    func run(in context: ProcessContext) throws {
        let change: CardChange
        switch (text, edit, withdraw) {
        case (let text?, nil, nil): change = .addComment(text: text)
        case (let text?, let number?, nil): change = .editComment(number, text: text)
        case (nil, nil, let number?): change = .editComment(number, text: nil)
        default: throw CLIError.commentOptions
        }
        try context.changeCard(id, change, json: output.json)
    }
}
