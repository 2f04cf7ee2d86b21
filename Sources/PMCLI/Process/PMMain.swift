import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

#if canImport(Glibc)
    import Glibc
#endif

/// The entry point: parses, runs, and turns every error into a localized
/// message and a documented exit code. Nothing escapes as a trap.
public enum PMMain {
    /// The web board's server, where it is linked in (`pm-serve` sets it
    /// before ``main()``); in pm itself `pm serve` starts `pm-serve`.
    nonisolated(unsafe) public static var webServer: ((ServeLaunch) throws -> Void)?

    public static func main() -> Never {
        // pm list | head: a closed pipe ends output quietly instead of killing pm.
        signal(SIGPIPE, SIG_IGN)
        // Without ICU, the one line that says how to get it, as pm exits.
        atexit { PMMain.noteMissingICU() }
        exit(run(.process(arguments: Array(commandLine().dropFirst()))))
    }

    /// Runs pm once with what `invocation` gives it, and returns its exit
    /// status: `pm` itself, or a test running many side by side in one
    /// process (nothing here reads the process's own environment or
    /// descriptors, or ends the process).
    public static func run(_ invocation: Invocation) -> Int32 {
        // The process's own run is what every lookup finds outside a run.
        if invocation.ownsProcess { return runCurrent(invocation) }
        CurrentRun.runsInProcess.store(true, ordering: .relaxed)
        return CurrentRun.$value.withValue(CurrentRun(invocation)) {
            let status = runCurrent(invocation)
            if !invocation.ownsProcess { noteMissingICU() }
            return status
        }
    }

    private static func runCurrent(_ invocation: Invocation) -> Int32 {
        // An argument that is not UTF-8 is refused by its 1-based position:
        // Swift would turn its bytes into U+FFFD silently, and pm would store
        // a title the user never typed.
        if let position = invocation.arguments.firstIndex(where: { UTF8Validation.firstInvalidOffset(in: $0) != nil }) {
            return fail(CLIError.argumentNotUTF8(position + 1))
        }
        let arguments = invocation.arguments.map { String(decoding: $0, as: UTF8.self) }
        // The version alone (scripts ask it often): no command tree to build.
        if arguments == ["--version"] { return finish(printing: PM.version) }
        let command: ParsableCommand
        if let parsed = CurrentRun.now.parsingToRun({ QuickParse.command(arguments) ?? parsedAlone(arguments) }) {
            // These run once and exit: what they read is never freed (not
            // so pm board and pm sync --watch, which run for hours).
            if invocation.ownsProcess, !(parsed is BoardCommand), !(parsed is Sync) { UntilExit.enable() }
            command = parsed
        } else {
            do {
                command = try PM.parseAsRoot(arguments)
            } catch {
                if PM.exitCode(for: error) == .success { return finishHelp(arguments, error: error) }
                return failUsage(arguments)
            }
        }
        do {
            var runnable = command
            try runnable.run()
            return 0
        } catch let code as ExitCode {
            return code.rawValue
        } catch let error where !(error is PMError || error is CLIError) && PM.exitCode(for: error) == .success {
            // pm alone, pm help CMD, a group without its command: the help.
            return finishHelp(arguments, error: error)
        } catch {
            return fail(error)
        }
    }

    /// The commands run most often, parsed by themselves: building the
    /// whole tree (every command's definitions and localized help) costs
    /// more than the parse. Anything else, and anything that does not parse
    /// cleanly (help, a mistake), goes the whole way, so messages and exit
    /// codes are those of the full command line.
    private static func parsedAlone(_ arguments: [String]) -> ParsableCommand? {
        guard let name = arguments.first else { return nil }
        let commands: [String: ParsableCommand.Type] = [
            "add": Add.self, "list": List.self, "ls": List.self, "show": Show.self, "edit": Edit.self, "move": Move.self,
            "start": Start.self, "done": Done.self, "delete": Delete.self, "rm": Delete.self, "history": History.self,
            "undo": Undo.self, "redo": Redo.self, "remind": Remind.self, "status": Status.self, "assign": Assign.self,
            "unassign": Unassign.self, "take": Take.self, "news": News.self, "board": BoardCommand.self,
            "merge": Merge.self, "sync": Sync.self, "remote": Remote.self, "checkpoint": Checkpoint.self,
            "import": Import.self, "export": Export.self,
        ]
        guard let type = commands[name] else { return nil }
        let rest = Array(arguments.dropFirst())
        // Help and ArgumentParser's own machine outputs are the whole tree's.
        guard
            !rest.contains(where: {
                $0 == "-h" || $0 == "--help" || $0 == "--version" || $0.hasPrefix("--experimental") || $0.hasPrefix("--generate")
            })
        else { return nil }
        return try? type.parseAsRoot(rest)
    }

    /// The help the arguments ask for, rendered by pm in the reader's
    /// language; `--version` as ArgumentParser prints it (a number, no words).
    private static func finishHelp(_ given: [String], error: Error) -> Int32 {
        // `pm --help add` asks what `pm help add` asks (as `git --help add`):
        // the words after it name a command, and one that names none is a
        // usage error (`pm --help nope`), not the main page and exit 0.
        var arguments = given
        if let first = given.first, first == "--help" || first == "-h", given.count > 1 {
            arguments = ["help"] + given.dropFirst()
        }
        let root = CommandModel.load()
        let width = ProcessContext.terminalWidth(
            RunVariables.columns(ProcessContext.variables), output: CurrentRun.now.invocation.output)
        let renderer = HelpRenderer(localizer: ProcessContext.localizer, width: width, root: root)
        let check = UsageCheck(root: root, valueLabel: renderer.valueLabel)
        // Machine output ArgumentParser makes (its JSON of the commands), untouched.
        if arguments.contains(where: { $0.hasPrefix("--experimental-dump-help") || $0.hasPrefix("--generate-completion-script") })
        {
            return finish(printing: PM.fullMessage(for: error))
        }
        if let unknown = check.unknownWordInHelp(arguments) { return failUsage(arguments, found: unknown) }
        if let path = check.helpPath(arguments) { return finish(printing: renderer.render(path)) }
        if arguments.contains("--version") { return finish(printing: PM.fullMessage(for: error)) }
        return finish(printing: renderer.render(check.path(of: arguments).path))
    }

    /// A command line ArgumentParser refused: what is wrong, in the reader's
    /// language, and how to see the command's help. Exit 64.
    private static func failUsage(_ arguments: [String], found: (path: [String], problem: UsageProblem)? = nil) -> Int32 {
        let localizer = ProcessContext.localizer
        let root = CommandModel.load()
        let renderer = HelpRenderer(localizer: localizer, width: 80, root: root)
        let check = UsageCheck(root: root, valueLabel: renderer.valueLabel)
        let (path, problem) = found.map { ($0.path, Optional($0.problem)) } ?? check.problem(in: arguments)
        let command = (["pm"] + path).joined(separator: " ")
        // Whatever was typed is shown escaped: never raw to the terminal.
        let safe = { (text: String) in MessageArgument.text(TextSafety.escaped(text)) }
        var lines: [String] = []
        switch problem {
        case .unknownCommand(let word, let suggestion):
            lines.append(localizer.string(.usageUnknownCommand, safe(word)))
            if let suggestion { lines.append(localizer.string(.usageDidYouMean, .text(localizer.quoted(suggestion)))) }
        case .unknownOption(let option, let suggestion):
            lines.append(localizer.string(.usageUnknownOption, .text(command), safe(option)))
            if let suggestion { lines.append(localizer.string(.usageDidYouMean, .text(suggestion))) }
        case .missingValue(let option, let value): lines.append(localizer.string(.usageMissingValue, .text(option), .text(value)))
        case .flagTakesNoValue(let option): lines.append(localizer.string(.usageFlagTakesNoValue, safe(option)))
        case .invalidChoice(let value, let option, let choices):
            lines.append(
                localizer.string(.usageInvalidChoice, safe(value), .text(option), .text(choices.joined(separator: ", "))))
        case .notANumber(let value, let option): lines.append(localizer.string(.usageNotANumber, safe(value), .text(option)))
        case .missingArgument(let value): lines.append(localizer.string(.usageMissingArgument, .text(command), .text(value)))
        case .unexpectedArgument(let word): lines.append(localizer.string(.usageUnexpectedArgument, .text(command), safe(word)))
        case nil: lines.append(localizer.string(.usageNotUnderstood, .text(command)))
        }
        lines[0] = localizer.string(.errorFormat, .text(localizer.afterColon(lines[0])))
        lines.append(localizer.string(.usageSeeHelp, .text(command + " --help")))
        Output().errorLine(lines.joined(separator: "\n"))
        return ErrorReport.ExitStatus.usage.rawValue
    }

    /// Prints help or the version (escaped: help texts come from tables) and
    /// exits 0, or 74 when standard output cannot take it.
    private static func finish(printing text: String) -> Int32 {
        let output = Output()
        output.line(TextSafety.escaped(text, keepNewlines: true))
        do {
            try output.flush()
        } catch {
            return fail(error)
        }
        return 0
    }

    /// Says on standard error that the system has no ICU, when this command
    /// needed it (never for commands that did not): once per person, the
    /// first time (remembered in the state folder), naming the package that
    /// brings it on this system when pm knows it (issue 44, item 8).
    static func noteMissingICU() {
        guard ICULibrary.wasNeededAndMissing else { return }
        let variables = ProcessContext.variables
        let home = ProcessContext.nonEmpty(variables["HOME"]) ?? "/"
        let state = (ProcessContext.absolute(variables["XDG_STATE_HOME"]) ?? home + "/.local/state") + "/pm"
        let user = ProcessContext.userName(variables)
        let mark = NoticeMark(stateDirectory: state, user: user, name: "icu")
        guard !mark.given else { return }
        let l = ProcessContext.localizer
        let release = (try? PosixFileSystem().readFile("/etc/os-release")) ?? []
        if let package = NoticeMark.icuPackage(osRelease: release) {
            Output().errorLine(l.string(.messageIcuMissingPackage, .text(package)))
        } else {
            Output().errorLine(l.string(.messageIcuMissing))
        }
        mark.remember()
    }

    /// Reports `error` in the reader's language and exits with its code.
    private static func fail(_ error: Error) -> Int32 {
        let localizer = ProcessContext.localizer
        let variables = ProcessContext.variables
        let style = TextStyle(
            color: false, formatLocale: LanguageResolver.formatLocale(environment: variables),
            zone: ProcessContext.timeZone(variables["TZ"]))
        let (lines, status) = ErrorReport.describe(
            error, localizer: localizer, when: style.momentInSentence, formatLocale: style.formatLocale,
            reader: ProcessContext.userName(variables))
        // After "pm : erreur :", French begins with a small letter (issue 44, item 21).
        var text = localizer.string(.errorFormat, .text(localizer.afterColon(lines.first ?? "")))
        for line in lines.dropFirst() { text += "\n" + line }
        Output().errorLine(text)
        return status.rawValue
    }

    /// The command line as bytes: as the loader passed it (kept by a C
    /// constructor: needs no /proc, which a chroot or a sandbox may lack,
    /// and no untouched `environ`). Else Swift's, which it finds through
    /// `environ` at start-up (a preloaded library that calls `setenv` first,
    /// as libfaketime does, leaves it empty); else the kernel's copy, rather
    /// than running as if no argument had been given.
    static func commandLine() -> [[UInt8]] {
        if let loaded = LoaderArguments.bytes { return loaded }
        if CommandLine.argc > 0 {
            return (0..<Int(CommandLine.argc)).map { position in
                guard let pointer = CommandLine.unsafeArgv[position] else { return [] }
                return UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            }
        }
        guard let file = fopen("/proc/self/cmdline", "r") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        if bytes.last == 0 { bytes.removeLast() }
        return bytes.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
    }
}
