import ArgumentParser
import PMCore
import PMLocalization

/// `--color auto|always|never`.
enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// Options every command takes.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(help(.helpBoard)))
    var board: String?

    @Flag(name: .long, help: ArgumentHelp(help(.helpJson)))
    var json = false

    @Option(name: .long, help: ArgumentHelp(help(.helpColor)))
    var color: ColorMode = .auto

    /// Whether to colour output, from `--color`, the terminal and `NO_COLOR`.
    func useColor(_ context: ProcessContext) -> Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto: return context.stdoutIsTerminal && !context.noColor
        }
    }
}

/// A translated help text.
func help(_ key: L10nKey) -> String {
    ProcessContext.localizer.string(key)
}

/// A command that runs with the process context.
protocol PMCommand: ParsableCommand {
    var common: CommonOptions { get }
    func run(in context: ProcessContext) throws
}

extension PMCommand {
    func run() throws {
        let context = try ProcessContext.live(boardOverride: common.board)
        do {
            try run(in: context)
        } catch {
            try? context.output.flush()
            throw error
        }
        // A full disk or a closed descriptor is an error, never a silent exit 0.
        try context.output.flush()
    }
}

/// Column names: keys for scripts, and each shipped language's name for people.
enum StateNames {
    static func key(_ state: TaskState) -> L10nKey {
        switch state {
        case .todo: return .columnTodo
        case .doing: return .columnDoing
        case .done: return .columnDone
        }
    }

    /// The state named by `text`: `todo|doing|done` in any case, or a
    /// column's name in the reader's language or any shipped language.
    static func parse(_ text: String, localizer: Localizer) throws -> TaskState {
        let wanted = normalize(text)
        if let state = TaskState(rawValue: wanted) { return state }
        var localizers = [localizer]
        for language in TableSource.shippedLanguages {
            localizers.append(Localizer(chain: LanguageChain([language])))
        }
        for candidate in localizers {
            for state in TaskState.allCases where normalize(candidate.string(key(state))) == wanted {
                return state
            }
        }
        throw PMError.unknownState(text)
    }

    private static func normalize(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
