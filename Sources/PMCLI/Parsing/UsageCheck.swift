import PMLocalization

/// What is wrong with a command line ArgumentParser refused, found again
/// from the command definitions so that pm can say it in the reader's
/// language (ArgumentParser's own messages are English only).
enum UsageProblem: Equatable {
    case unknownCommand(String, suggestion: String?)
    case unknownOption(String, suggestion: String?)
    case missingValue(option: String, value: String)
    case flagTakesNoValue(String)
    case invalidChoice(value: String, option: String, choices: [String])
    case notANumber(value: String, option: String)
    case missingArgument(String)
    case unexpectedArgument(String)
}

/// Walks the arguments the way ArgumentParser reads them.
struct UsageCheck {
    let root: CommandModel
    /// How value names are shown (`<제목>`), from the help renderer.
    let valueLabel: (ArgumentModel) -> String

    /// The command path the arguments name (`["remote", "add"]`): leading
    /// words that are commands, or a group's default command.
    func path(of arguments: [String]) -> (path: [String], rest: ArraySlice<String>) {
        var command = root
        var path: [String] = []
        var rest = arguments[...]
        while let word = rest.first, let child = command.child(word) {
            path.append(child.commandName)
            command = child
            rest = rest.dropFirst()
        }
        return (path, rest)
    }

    /// The command whose help `arguments` ask for, if they ask for help:
    /// `pm help CMD…`, `pm CMD… --help`/`-h` (before `--`), or a group alone.
    func helpPath(_ arguments: [String]) -> [String]? {
        if arguments.first == "help" {
            let rest = Array(arguments.dropFirst())
            // `pm help --help`: the help of `help` itself.
            if !rest.isEmpty && rest.allSatisfy({ $0 == "--help" || $0 == "-h" }) { return ["help"] }
            return self.path(of: rest).path
        }
        let (path, rest) = self.path(of: arguments)
        for word in rest {
            if word == "--" { break }
            if word == "--help" || word == "-h" { return path }
        }
        if rest.isEmpty, let command = root.descendant(path), !command.children.isEmpty, command.defaultSubcommand == nil {
            return path
        }
        return nil
    }

    /// A word in a request for help that names no command (`pm help nope`,
    /// `pm nope --help`, `pm help remote nope`): a usage error like `pm nope`,
    /// not a help page and exit 0 (issue 44, item 19). A command's own
    /// arguments before `--help` (`pm show ID --help`) are not looked at.
    func unknownWordInHelp(_ arguments: [String]) -> (path: [String], problem: UsageProblem)? {
        var words = arguments[...]
        let asked = words.first == "help"
        if asked { words = words.dropFirst() }
        let (path, rest) = self.path(of: Array(words))
        guard let command = root.descendant(path), let word = rest.first, !word.hasPrefix("-") else { return nil }
        if !asked && command.children.isEmpty { return nil }
        let names = command.visibleChildren.map(\.commandName).filter { $0 != "help" }
        return (path, .unknownCommand(word, suggestion: Self.closest(word, among: names)))
    }

    /// The first problem in `arguments`, and the command it concerns.
    func problem(in arguments: [String]) -> (path: [String], problem: UsageProblem?) {
        var (path, rest) = self.path(of: arguments)
        guard var command = root.descendant(path) else { return (path, nil) }
        if !command.children.isEmpty {
            if let word = rest.first, !word.hasPrefix("-") {
                let names = command.visibleChildren.map(\.commandName).filter { $0 != "help" }
                return (path, .unknownCommand(word, suggestion: Self.closest(word, among: names)))
            }
            if let name = command.defaultSubcommand, let child = command.child(name) {
                path.append(name)
                command = child
            }
        }
        var positionals: [String] = []
        var onlyPositionals = false
        var words = rest
        while let word = words.popFirst() {
            if onlyPositionals || word == "-" || !word.hasPrefix("-") || Self.isNumber(word) {
                positionals.append(word)
                continue
            }
            if word == "--" {
                onlyPositionals = true
                continue
            }
            let parts = word.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard let argument = command.named(name), argument.longName != "version" || path.isEmpty else {
                let names = (command.arguments ?? []).flatMap(\.spelledNames).filter { $0.hasPrefix("--") }
                return (path, .unknownOption(name, suggestion: Self.closest(name, among: names)))
            }
            if argument.kind == .flag {
                if parts.count > 1 { return (path, .flagTakesNoValue(name)) }
                continue
            }
            let value: String
            if parts.count > 1 {
                value = String(parts[1])
            } else if let next = words.first, !next.hasPrefix("-") || Self.isNumber(next) || next == "-" {
                value = next
                words = words.dropFirst()
            } else {
                return (path, .missingValue(option: name, value: valueLabel(argument)))
            }
            if let problem = Self.valueProblem(value, of: argument, named: name) { return (path, problem) }
        }
        return (path, positionalProblem(positionals, of: command, path: path))
    }

    /// What is wrong with an option's value: not one of its choices, or
    /// not a number where its default is one.
    private static func valueProblem(_ value: String, of argument: ArgumentModel, named name: String) -> UsageProblem? {
        if let choices = argument.allValues, !choices.isEmpty, !choices.contains(value) {
            return .invalidChoice(value: value, option: name, choices: choices)
        }
        if let defaultValue = argument.defaultValue, Int(defaultValue) != nil, Int(value) == nil {
            return .notANumber(value: value, option: name)
        }
        return nil
    }

    /// What is wrong with the command's positional words: one not among
    /// its fixed choices, one missing, or one too many.
    private func positionalProblem(_ positionals: [String], of command: CommandModel, path: [String]) -> UsageProblem? {
        let expected = command.positionals
        // A word among fixed choices (`pm completion bash|zsh|fish`) is one of them.
        for (argument, value) in zip(expected, positionals) {
            if let choices = argument.allValues, !choices.isEmpty, !argument.isRepeating, !choices.contains(value) {
                return .invalidChoice(value: value, option: (["pm"] + path).joined(separator: " "), choices: choices)
            }
        }
        for (index, argument) in expected.enumerated() where !argument.isOptional && !argument.isRepeating {
            if index >= positionals.count { return .missingArgument(valueLabel(argument)) }
        }
        if !expected.contains(where: \.isRepeating), positionals.count > expected.count {
            return .unexpectedArgument(positionals[expected.count])
        }
        return nil
    }

    private static func isNumber(_ word: String) -> Bool {
        word.count > 1 && word.hasPrefix("-") && word.dropFirst().allSatisfy(\.isNumber)
    }

    /// The name at the smallest edit distance, if it is close enough to be a typo.
    static func closest(_ word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, distance(Array(word.lowercased()), Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= (best.0.count <= 3 ? 1 : 2) ? best.0 : nil
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        var beforePrevious = previous
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                // A swap of two neighbours (lsit → list) is one typo.
                if i > 0, j > 0, x == b[j - 1], a[i - 1] == y { current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1) }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
