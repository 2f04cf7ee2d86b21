import PMICU
import PMLocalization

/// `pm --help`, `pm help CMD`, `pm CMD --help`: every heading, value name,
/// default note and description from the tables, wrapped by terminal cells
/// (a Korean line is as wide as its cells, not its characters).
struct HelpRenderer {
    let localizer: Localizer
    /// Cells per line (at least 40, so a column of descriptions stays readable).
    let width: Int
    let root: CommandModel

    init(localizer: Localizer, width: Int, root: CommandModel) {
        self.localizer = localizer
        self.width = max(40, width)
        self.root = root
    }

    /// The help of the command at `path` (empty for `pm` itself).
    func render(_ path: [String]) -> String {
        guard let command = root.descendant(path) else { return render([]) }
        var lines: [String] = []
        let abstract = path == ["help"] ? localizer.string(.helpCommandHelp) : command.abstract ?? ""
        if !abstract.isEmpty {
            lines += wrap(abstract, indent: 0)
            lines.append("")
        }
        let usageHeading = localizer.string(.helpHeadingUsage) + " "
        lines += wrap(tokens: usageTokens(path, command), first: usageHeading)
        let isRoot = path.isEmpty
        let positionals = command.visibleArguments(isRoot: isRoot).filter { $0.kind == .positional }
        if !positionals.isEmpty && command.children.isEmpty {
            lines += section(
                localizer.string(.helpHeadingArguments),
                positionals.map { (valueLabel($0), describe($0)) })
        }
        let options = command.visibleArguments(isRoot: isRoot).filter { $0.kind != .positional }
        if !options.isEmpty {
            lines += section(localizer.string(.helpHeadingOptions), options.map { (optionLabel($0), describe($0)) })
        }
        if !command.children.isEmpty {
            let rows = command.visibleChildren.map { child -> (String, String) in
                let text = child.commandName == "help" ? localizer.string(.helpCommandHelp) : child.abstract ?? ""
                return (([child.commandName] + (child.aliases ?? [])).joined(separator: ", "), text)
            }
            lines += section(localizer.string(.helpHeadingCommands), rows)
            lines.append("")
            let more = (["pm", "help"] + path + ["<" + localizer.string(.helpValueCommand) + ">"]).joined(separator: " ")
            lines += wrap(localizer.string(.helpMore, .text(more)), indent: 0)
        }
        return lines.joined(separator: "\n")
    }

    /// `pm add <title> [--body <body>] [--json]`, one token per unbreakable piece.
    func usageTokens(_ path: [String], _ command: CommandModel) -> [String] {
        var tokens = ["pm"] + path
        if !command.children.isEmpty {
            let name = "<" + localizer.string(.helpValueCommand) + ">"
            tokens.append(command.defaultSubcommand == nil ? name : "[" + name + "]")
            return tokens
        }
        let arguments = command.visibleArguments(isRoot: path.isEmpty).filter { $0.longName != "help" }
        for argument in arguments where argument.kind == .positional {
            var token = valueLabel(argument)
            if argument.isRepeating { token += "…" }
            tokens.append(argument.isOptional ? "[" + token + "]" : token)
        }
        for argument in arguments where argument.kind != .positional && argument.longName != "version" {
            var token = argument.spelledNames.last ?? ""
            if argument.kind == .option { token += " " + valueLabel(argument) }
            if argument.isRepeating { token += " …" }
            tokens.append(argument.isOptional ? "[" + token + "]" : token)
        }
        return tokens
    }

    /// `<제목>` for a value; `auto|always|never` for a closed list, typed as is.
    func valueLabel(_ argument: ArgumentModel) -> String {
        if let values = argument.allValues, !values.isEmpty { return values.joined(separator: "|") }
        return "<" + valueName(argument.valueName ?? "") + ">"
    }

    func valueName(_ name: String) -> String {
        guard let key = Self.valueKeys[name] else { return localizer.string(.helpValueText) }
        return localizer.string(key)
    }

    static let valueKeys: [String: L10nKey] = [
        "title": .helpValueTitle, "body": .helpValueBody, "due": .helpValueDate, "id": .helpValueID, "task": .helpValueID,
        "board": .helpValueBoard, "state": .helpValueColumn, "limit": .helpValueCount, "files": .helpValueFile,
        "output": .helpValueFile, "directory": .helpValueFolder, "target": .helpValueTarget, "text": .helpValueText,
        "subcommands": .helpValueCommand, "name": .helpValueName, "mapping": .helpValueMapping, "file": .helpValueFile,
        "date": .helpValueDate,
        "shell": .helpValueShell, "member": .helpValueMember, "delimiter": .helpValueDelimiter, "headers": .helpValueHeaders,
        "port": .helpValuePort, "address": .helpValueAddress, "label": .helpValueLabel, "priority": .helpValuePriority,
        "view": .helpValueView, "action": .helpValueAction, "words": .helpValueWords, "n": .helpValueCount,
    ]

    func optionLabel(_ argument: ArgumentModel) -> String {
        var label = argument.spelledNames.joined(separator: ", ")
        if argument.kind == .option { label += " " + valueLabel(argument) }
        return label
    }

    func describe(_ argument: ArgumentModel) -> String {
        switch argument.longName {
        case "help": return localizer.string(.helpHelpFlag)
        case "version": return localizer.string(.helpVersionFlag)
        default: break
        }
        var text = argument.abstract ?? ""
        // ArgumentParser's own help command leaves its argument undescribed.
        if text.isEmpty, argument.kind == .positional, argument.valueName == "subcommands" {
            text = localizer.string(.helpHelpTopic)
        }
        if let value = argument.defaultValue, !value.isEmpty, argument.kind == .option {
            text += " " + localizer.string(.helpDefault, .text(value))
        }
        return text
    }

    /// A heading, then two columns: labels, and descriptions wrapped beside them.
    func section(_ heading: String, _ rows: [(String, String)]) -> [String] {
        var lines = ["", heading]
        let widest = rows.map { TerminalCells.width(of: $0.0) }.max() ?? 0
        let column = min(widest, 26) + 4
        let roomy = width - column >= 30
        for (label, text) in rows {
            let labelWidth = TerminalCells.width(of: label)
            if roomy && labelWidth + 4 <= column {
                let body = wrap(text, indent: column, width: width)
                let first =
                    "  " + TerminalCells.pad(label, toWidth: column - 2) + (body.first.map { String($0.dropFirst(column)) } ?? "")
                lines.append(trimmed(first))
                lines += body.dropFirst()
            } else {
                lines.append("  " + label)
                lines += wrap(text, indent: roomy ? column : 6, width: width)
            }
        }
        return lines
    }

    func wrap(_ text: String, indent: Int) -> [String] { wrap(text, indent: indent, width: width) }

    /// Words packed into lines of at most `width` cells, each indented;
    /// a word wider than a line is cut between characters. Text written
    /// without spaces (Japanese) is cut where ICU's line rules allow
    /// (never before `。` `、` `）`, never inside a Latin word).
    func wrap(_ text: String, indent: Int, width: Int) -> [String] {
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var words: [(String, Bool)] = []
            for word in paragraph.split(separator: " ").map(String.init) {
                guard word.unicodeScalars.contains(where: LineBreaks.breaksWithoutSpace) else {
                    words.append((word, false))
                    continue
                }
                for (index, piece) in LineBreaks.pieces(of: word, locale: localizer.language).enumerated() {
                    words.append((piece, index > 0))
                }
            }
            lines += pack(words, first: String(repeating: " ", count: indent), rest: String(repeating: " ", count: indent))
        }
        return lines
    }

    func wrap(tokens: [String], first: String) -> [String] {
        pack(
            tokens.map { ($0, false) }, first: first,
            rest: String(repeating: " ", count: min(TerminalCells.width(of: first) + 3, width / 2)))
    }

    /// Words into lines; a word marked glued follows the one before it
    /// without a space (a piece of a run of Japanese).
    private func pack(_ words: [(String, Bool)], first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for (var word, glued) in words {
            while true {
                let space = lineHasWord && !glued ? 1 : 0
                let room = width - TerminalCells.width(of: line) - space
                if TerminalCells.width(of: word) <= room {
                    line += (space == 1 ? " " : "") + word
                    lineHasWord = true
                    break
                }
                if lineHasWord {
                    lines.append(line)
                    line = rest
                    lineHasWord = false
                    continue
                }
                // A word wider than a whole line: cut it between characters.
                let head = TerminalCells.truncate(word, toWidth: room, ellipsis: "")
                guard !head.isEmpty else {
                    line += word
                    lineHasWord = true
                    break
                }
                lines.append(line + head)
                word = String(word.dropFirst(head.count))
                line = rest
            }
        }
        lines.append(line)
        return lines.map(trimmed)
    }

    private func trimmed(_ line: String) -> String {
        var line = line
        while line.last == " " { line.removeLast() }
        return line
    }
}
