import ArgumentParser
import FoundationEssentials

/// The command tree as ArgumentParser defines it (read from its JSON dump),
/// the one source for pm's own help, usage errors, manual pages and
/// completion scripts. ArgumentParser cannot be told the words of its
/// headings and errors, so pm renders those itself (L10N.md).
struct CommandModel: Decodable, Sendable {
    let commandName: String
    let aliases: [String]?
    let shouldDisplay: Bool?
    let abstract: String?
    let defaultSubcommand: String?
    let subcommands: [CommandModel]?
    let arguments: [ArgumentModel]?

    /// The whole tree, with help texts in the run's language: made once per
    /// language in a process that runs pm many times (the test suite).
    static func load() -> CommandModel {
        CurrentRun.now.shared("commandModel", make: build)
    }

    private static func build() -> CommandModel {
        struct Dump: Decodable { let command: CommandModel }
        let json = PM._dumpHelp()
        if let dump = try? JSONDecoder().decode(Dump.self, from: Data(json.utf8)) { return dump.command }
        return CommandModel(
            commandName: "pm", aliases: nil, shouldDisplay: true, abstract: nil, defaultSubcommand: nil, subcommands: nil,
            arguments: nil)
    }

    var children: [CommandModel] { subcommands ?? [] }

    /// Subcommands shown to people (not the shells' hidden helpers).
    var visibleChildren: [CommandModel] { children.filter { $0.shouldDisplay != false } }

    /// The ways to type the command at `path`: each name or alias at each level.
    func spellings(_ path: [String]) -> [[String]] {
        var result: [[String]] = [[]]
        var command = self
        for name in path {
            guard let next = command.child(name) else { return [path] }
            let names = [next.commandName] + (next.aliases ?? [])
            result = result.flatMap { prefix in names.map { prefix + [$0] } }
            command = next
        }
        return result
    }

    /// The subcommand called `name` or one of its aliases (`rm`, `ls`).
    func child(_ name: String) -> CommandModel? {
        children.first { $0.commandName == name || ($0.aliases ?? []).contains(name) }
    }

    /// Arguments shown to people: not hidden, and `--version` only at the root.
    func visibleArguments(isRoot: Bool) -> [ArgumentModel] {
        (arguments ?? []).filter { $0.shouldDisplay && (isRoot || $0.longName != "version") }
    }

    var positionals: [ArgumentModel] { (arguments ?? []).filter { $0.kind == .positional } }

    /// The named option or flag (`--due`, `-h`), if this command has it.
    func named(_ name: String) -> ArgumentModel? {
        (arguments ?? []).first { argument in (argument.names ?? []).contains { $0.spelled == name } }
    }

    /// Follows `path` (`["remote", "add"]`) down the tree.
    func descendant(_ path: [String]) -> CommandModel? {
        var command = self
        for name in path {
            guard let next = command.child(name) else { return nil }
            command = next
        }
        return command
    }
}

struct ArgumentModel: Decodable, Sendable {
    enum Kind: String, Decodable, Sendable { case positional, option, flag }

    struct Name: Decodable, Sendable {
        let kind: String
        let name: String
        /// `--due`, `-h`.
        var spelled: String { kind == "long" ? "--" + name : kind == "short" ? "-" + name : "-" + name }
    }

    let kind: Kind
    let shouldDisplay: Bool
    let isOptional: Bool
    let isRepeating: Bool
    let names: [Name]?
    let valueName: String?
    let defaultValue: String?
    let allValues: [String]?
    let abstract: String?

    var longName: String? { names?.first { $0.kind == "long" }?.name }

    /// `--due, -d` as typed, long names last so the list reads `-h, --help`.
    var spelledNames: [String] {
        (names ?? []).sorted { ($0.kind == "long" ? 1 : 0) < ($1.kind == "long" ? 1 : 0) }.map(\.spelled)
    }
}
