import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// `pm __complete --shell SHELL -- WORD...`: the candidates for the last
/// word, given the words typed after `pm` (hidden: the completion scripts
/// call it at each Tab). Commands, options and their descriptions come from
/// the command definitions in the reader's language; ids with their titles
/// and column names from the board and the tables.
struct Complete: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "__complete", shouldDisplay: false)
    }

    enum Shell: String, ExpressibleByArgument, CaseIterable { case bash, zsh, fish }

    @Option(name: .long) var shell: Shell = .bash
    @Argument(parsing: .captureForPassthrough) var words: [String] = []

    func run() throws {
        let root = CommandModel.load()
        var typed = words
        if typed.first == "--" { typed.removeFirst() }
        let current = typed.popLast() ?? ""
        var completer = Completer(root: root, localizer: ProcessContext.localizer)
        let candidates = completer.candidates(typed, current)
        let output = Output()
        for candidate in candidates {
            switch (shell, candidate) {
            case (.bash, .files): output.line("\u{1}files")
            case (.zsh, .files): output.line("\u{1}files")
            case (.fish, .files): output.line("\u{1}files")
            case (.bash, .word(let value, _)):
                // Spaces and shell characters escaped, as bash inserts the text
                // as is: expansions (`$`, backquotes, braces, globs, `~`, `!`),
                // operators and quotes never act when the line is entered.
                var escaped = ""
                for character in value {
                    if " \t'\"\\$`&;|<>()*?[]{}!#~^".contains(character) { escaped.append("\\") }
                    escaped.append(character)
                }
                output.line(escaped)
            case (.zsh, .word(let value, let description)):
                let key = value.replacing("\\", with: "\\\\").replacing(":", with: "\\:")
                output.line(description.isEmpty ? key : key + ":" + description)
            case (.fish, .word(let value, let description)):
                output.line(description.isEmpty ? value : value + "\t" + description)
            }
        }
        try output.flush()
    }
}

/// Decides what may come next on a command line, from the definitions.
struct Completer {
    enum Candidate: Equatable {
        case word(String, description: String)
        case files
    }

    let root: CommandModel
    let localizer: Localizer
    /// `--board` as typed so far on the line, for the ids.
    var board: String?

    init(root: CommandModel, localizer: Localizer) {
        self.root = root
        self.localizer = localizer
    }

    mutating func candidates(_ typed: [String], _ current: String) -> [Candidate] {
        var command = root
        var path: [String] = []
        var positionals = 0
        var pending: ArgumentModel?
        var onlyPositionals = false
        for word in typed {
            if let option = pending {
                pending = nil
                if option.longName == "board" { board = word }
                continue
            }
            if word.hasPrefix("--board=") { board = String(word.dropFirst("--board=".count)) }
            if !onlyPositionals && word == "--" {
                onlyPositionals = true
                continue
            }
            if !onlyPositionals && word.hasPrefix("-") && word.count > 1 {
                if !word.contains("="), let option = command.named(word), option.kind == .option { pending = option }
                continue
            }
            if positionals == 0, let child = command.child(word) {
                command = child
                path.append(child.commandName)
                continue
            }
            positionals += 1
        }
        if let option = pending { return values(for: option, current, in: path) }
        if current.hasPrefix("-") && !onlyPositionals {
            let options = command.visibleArguments(isRoot: path.isEmpty).filter { $0.kind != .positional }
            let renderer = HelpRenderer(localizer: localizer, width: 200, root: root)
            return options.flatMap { option in
                option.spelledNames.filter { $0.hasPrefix(current) }.map {
                    Candidate.word($0, description: Self.firstSentence(renderer.describe(option)))
                }
            }
        }
        if !command.children.isEmpty && positionals == 0 {
            return command.visibleChildren.flatMap { child in
                ([child.commandName] + (child.aliases ?? [])).filter { $0.hasPrefix(current) }.map {
                    Candidate.word(
                        $0,
                        description: Self.firstSentence(
                            child.commandName == "help" ? localizer.string(.helpCommandHelp) : child.abstract))
                }
            }
        }
        let expected = command.positionals
        guard let argument = positionals < expected.count ? expected[positionals] : expected.last(where: \.isRepeating) else {
            return []
        }
        return values(for: argument, current, in: path)
    }

    /// Values for an option or argument, by what its definition names.
    func values(for argument: ArgumentModel, _ current: String, in path: [String] = []) -> [Candidate] {
        if let choices = argument.allValues, !choices.isEmpty {
            return choices.filter { $0.hasPrefix(current) }.map { .word($0, description: "") }
        }
        switch argument.valueName {
        // A done task is worth offering to show, edit, move back or delete; not to `pm done` again.
        case "id", "task": return ids(current, done: path.last != "done")
        case "state":
            // Each column once: its name in the reader's language, or its
            // script name (todo, doing, done) when that is what is being typed.
            let wanted = LooseText.fold(current)
            return TaskState.allCases.compactMap { state -> Candidate? in
                let name = localizer.string(StateNames.key(state))
                if LooseText.fold(name).hasPrefix(wanted) { return .word(name, description: "") }
                if state.rawValue.hasPrefix(current.lowercased()) { return .word(state.rawValue, description: name) }
                return nil
            }
        case "name": return names(current)
        case "label": return labels(current)
        case "priority":
            return PriorityNames.choices.map { PriorityNames.name($0, localizer: localizer) }.filter {
                LooseText.fold($0).hasPrefix(LooseText.fold(current))
            }.map { .word($0, description: "") }
        case "view":
            guard let context = try? ProcessContext.live(boardOverride: self.board), let views = try? context.session.views()
            else { return [] }
            return Assignees.sorted(views.keys).filter { $0.hasPrefix(current) }.map {
                .word(TextSafety.escaped($0), description: "")
            }
        case "board", "files", "output", "directory": return [.files]
        default: return []
        }
    }

    static func firstSentence(_ text: String?) -> String {
        let text = text ?? ""
        let end = text.firstIndex { $0 == "." || $0 == "(" || $0 == "\n" || $0 == "。" } ?? text.endIndex
        return text[..<end].trimmingWhiteSpace()
    }
}

/// `pm __generate man|bash|zsh|fish`: the manual page and completion scripts
/// shipped in Resources/, generated from the command definitions in the
/// language of `LANG` (hidden: `Resources/generate` runs it).
struct Generate: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "__generate", shouldDisplay: false)
    }

    enum What: String, ExpressibleByArgument, CaseIterable { case man, bash, zsh, fish }

    @Argument var what: What

    func run() throws {
        let root = CommandModel.load()
        let localizer = ProcessContext.localizer
        let renderer = HelpRenderer(localizer: localizer, width: 80, root: root)
        let text: String
        switch what {
        case .man: text = ManualPage(localizer: localizer, renderer: renderer, root: root).render()
        case .bash: text = CompletionScripts(root: root).bash()
        case .zsh: text = CompletionScripts(root: root).zsh()
        case .fish: text = CompletionScripts(root: root).fish()
        }
        let output = Output()
        output.line(text)
        try output.flush()
    }
}

/// `pm(1)` in roff, every word from the tables.
struct ManualPage {
    let localizer: Localizer
    let renderer: HelpRenderer
    let root: CommandModel

    func render() -> String {
        let l = localizer
        // A page the terminal cannot show in ASCII (LANG=C) says so in one
        // line instead of a page of blanks and a warning per character.
        let asciiNote = l.string(.manAsciiNote)
        var page = [".\\\" pm(1), generated by pm __generate man from the command definitions and the tables."]
        if !asciiNote.isEmpty { page.append(".if \"\\*[.T]\"ascii\" .warn 0") }
        page.append(".TH PM 1 \"\" \"pm \(PMVersion.string)\" \"\(roff(l.string(.manTitle)))\"")
        // Ragged right: justification spreads Korean words with wide gaps.
        // No hyphenation: man's patterns are English ones, which cut French
        // words wrongly (tra-duit) and option and column names (issue 44, item 29).
        page.append(".ad l")
        page.append(".nh")
        if !asciiNote.isEmpty { page += [".if \"\\*[.T]\"ascii\" \\{\\", roff(asciiNote), ".ex", ".\\}"] }
        // A page that stays readable in ASCII (French without its accents) says why, and goes on.
        let asciiHint = l.string(.manAsciiHint)
        if !asciiHint.isEmpty { page += [".if \"\\*[.T]\"ascii\" \\{\\", roff(asciiHint), ".sp", ".\\}"] }
        page += [
            ".SH \(roff(l.string(.manHeadingName)))",
            "pm \\- " + roff(root.abstract ?? ""),
            ".SH \(roff(l.string(.manHeadingSynopsis)))",
            ".B pm",
            ".I " + roff(l.string(.helpValueCommand)),
            "[\\fI" + roff(l.string(.helpHeadingOptions).trimming { $0 == ":" || $0 == " " || $0 == "\u{A0}" }) + "\\fR]",
            ".SH \(roff(l.string(.manHeadingDescription)))",
            roff(l.string(.manDescription)),
            ".SH \(roff(l.string(.manHeadingCommands)))",
        ]
        page += commandEntries()
        page.append(".SH \(roff(l.string(.manHeadingEnvironment)))")
        let variables: [(String, L10nKey)] = [
            ("PM_BOARD", .manEnvBoard), ("LANG, LC_ALL, LC_MESSAGES, LANGUAGE", .manEnvLanguage), ("LC_TIME", .manEnvTime),
            ("TZ", .manEnvZone), ("PM_USER", .manEnvUser), ("PM_REMIND_AT", .manEnvRemind), ("PM_SYNC_INTERVAL", .manEnvSync),
            ("PM_LOCALIZATION_DIR", .manEnvTables), ("NO_COLOR", .manEnvNoColor), ("COLUMNS", .manEnvColumns),
            ("XDG_DATA_HOME, XDG_STATE_HOME", .manEnvXDG),
        ]
        for (name, key) in variables {
            page += [".TP", "\\fB" + roff(name) + "\\fR", roff(l.string(key))]
        }
        page.append(".SH \(roff(l.string(.manHeadingExitStatus)))")
        let statuses: [(String, L10nKey)] = [
            ("0", .manExitSuccess), ("1", .manExitRefused), ("64", .manExitUsage), ("65", .manExitData),
            ("70", .manExitInternal), ("73", .manExitCreate), ("74", .manExitIO), ("75", .manExitLater),
        ]
        for (code, key) in statuses { page += [".TP", "\\fB\(code)\\fR", roff(l.string(key))] }
        page.append(".SH \(roff(l.string(.manHeadingSeeAlso)))")
        page.append("\\fBgit\\fR(1), \\fBcrontab\\fR(5), \\fBsystemd.timer\\fR(5)")
        return page.joined(separator: "\n")
    }

    /// Each runnable command: its usage, what it does, and its arguments.
    private func commandEntries() -> [String] {
        var page: [String] = []
        for (path, command) in leaves(root, []) {
            page.append(".TP")
            page.append(renderer.usageTokens(path, command).map { roffToken($0) }.joined(separator: " "))
            page.append(roff(path == ["help"] ? localizer.string(.helpCommandHelp) : command.abstract ?? ""))
            let arguments = command.visibleArguments(isRoot: false).filter { $0.longName != "help" }
            guard !arguments.isEmpty else { continue }
            page.append(".RS")
            for argument in arguments {
                page.append(".TP")
                let label = argument.kind == .positional ? renderer.valueLabel(argument) : renderer.optionLabel(argument)
                page.append("\\fB" + roff(label) + "\\fR")
                page.append(roff(renderer.describe(argument)))
            }
            page.append(".RE")
        }
        return page
    }

    /// Every runnable command with its path, groups unfolded, hidden ones left out.
    private func leaves(_ command: CommandModel, _ path: [String]) -> [([String], CommandModel)] {
        if command.children.isEmpty { return path.isEmpty ? [] : [(path, command)] }
        return command.visibleChildren.flatMap { leaves($0, path + [$0.commandName]) }
    }

    /// Text safe in roff: backslashes doubled, hyphens as minus signs, no
    /// line starting with a control character; the space French puts before
    /// `:;?!»` and after `«` unbreakable (`\~`), so no line begins with a
    /// colon; `…` as three dots, which every output device has; a break
    /// allowed (`\:`) after `/` and `|`.
    func roff(_ text: String) -> String {
        var result = ""
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "…": result += "..."
            // A long path or list of choices may break after a slash or a bar on a narrow terminal.
            case "/", "|": result += String(character) + "\\:"
            case " " where characters.first.map({ ":;?!»".contains($0) }) == true || result.hasSuffix("«"): result += "\\~"
            // French no-break spaces (before : ; ? ! and inside « »): roff's own, which every device has.
            case "\u{A0}", "\u{202F}": result += "\\~"
            default: result.append(character)
            }
        }
        return result.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasPrefix(".") || line.hasPrefix("'") ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }

    /// A usage token: option names bold, value names italic.
    private func roffToken(_ token: String) -> String {
        if token.hasPrefix("<") || token.hasPrefix("[<") { return "\\fI" + roff(token) + "\\fR" }
        return "\\fB" + roff(token) + "\\fR"
    }
}

/// bash, zsh and fish completion scripts: thin, since `pm __complete`
/// decides every candidate (from the same definitions as the help, in the
/// reader's language at the moment of completion).
struct CompletionScripts {
    let root: CommandModel

    func bash() -> String {
        """
        # bash completion for pm, generated by pm __generate bash.
        # Install: copy to ~/.local/share/bash-completion/completions/pm (or source it).
        _pm() {
            local item
            COMPREPLY=()
            while IFS= read -r item; do
                if [[ $item == $'\\001files' ]]; then
                    # bash quotes what it inserts only for file names, and only
                    # when told: a name like x$(cmd) must stay a name.
                    compopt -o filenames 2>/dev/null
                    while IFS= read -r item; do
                        COMPREPLY+=("$item")
                    done < <(compgen -f -- "${COMP_WORDS[COMP_CWORD]}")
                else
                    COMPREPLY+=("$item")
                fi
            done < <(pm __complete --shell bash -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
        }
        complete -F _pm pm
        """
    }

    func zsh() -> String {
        """
        #compdef pm
        # zsh completion for pm, generated by pm __generate zsh.
        # Install: copy to a folder of $fpath as _pm (e.g. ~/.zfunc, with fpath+=(~/.zfunc) before compinit).
        local -a candidates
        candidates=("${(@f)$(pm __complete --shell zsh -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
        if [[ ${candidates[1]} == $'\\001files' ]]; then
            _files
        elif (( ${#candidates} )) && [[ -n ${candidates[1]} ]]; then
            _describe -t values pm candidates
        fi
        """
    }

    func fish() -> String {
        """
        # fish completion for pm, generated by pm __generate fish.
        # Install: copy to ~/.config/fish/completions/pm.fish
        function __pm_complete
            set -l tokens (commandline -opc) (commandline -ct)
            for line in (pm __complete --shell fish -- $tokens[2..-1] 2>/dev/null)
                if test "$line" = (printf '\\001files')
                    __fish_complete_path (commandline -ct)
                else
                    echo $line
                end
            end
        end
        complete -c pm -f -a '(__pm_complete)'
        """
    }
}
