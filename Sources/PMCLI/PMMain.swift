import ArgumentParser
import PMCore
import PMICU
import PMLocalization

#if canImport(Glibc)
    import Glibc
#endif

/// The entry point: parses, runs, and turns every error into a localized
/// message and a documented exit code. Nothing escapes as a trap.
public enum PMMain {
    public static func main() -> Never {
        // pm list | head: a closed pipe ends output quietly instead of killing pm.
        signal(SIGPIPE, SIG_IGN)
        if let position = firstArgumentNotUTF8() { fail(CLIError.argumentNotUTF8(position)) }
        let command: ParsableCommand
        do {
            command = try PM.parseAsRoot()
        } catch {
            if PM.exitCode(for: error) == .success { finish(printing: PM.fullMessage(for: error)) }
            let localizer = ProcessContext.localizer
            // ArgumentParser echoes what was typed: never raw to the terminal.
            let echo = TextSafety.escaped(PM.message(for: error), keepNewlines: true)
            let message = localizer.string(.errorFormat, .text(localizer.string(.errorUsage, .text(echo))))
            Output().errorLine(message)
            exit(ErrorReport.ExitStatus.usage.rawValue)
        }
        do {
            var runnable = command
            try runnable.run()
            exit(0)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch let error where !(error is PMError || error is CLIError) && PM.exitCode(for: error) == .success {
            // --help, --version, or pm alone: ArgumentParser's own clean exits.
            finish(printing: PM.fullMessage(for: error))
        } catch {
            fail(error)
        }
    }

    /// Prints help or the version (escaped: help texts come from tables) and
    /// exits 0, or 74 when standard output cannot take it.
    private static func finish(printing text: String) -> Never {
        let output = Output()
        output.line(TextSafety.escaped(text, keepNewlines: true))
        do {
            try output.flush()
        } catch {
            fail(error)
        }
        exit(0)
    }

    /// Reports `error` in the reader's language and exits with its code.
    private static func fail(_ error: Error) -> Never {
        let localizer = ProcessContext.localizer
        let variables = ProcessContext.variables
        let style = TextStyle(
            color: false, formatLocale: LanguageResolver.formatLocale(environment: variables),
            zone: ProcessContext.timeZone(variables["TZ"]))
        let (lines, status) = ErrorReport.describe(
            error, localizer: localizer, when: style.dateTime, formatLocale: style.formatLocale)
        var text = localizer.string(.errorFormat, .text(lines.first ?? ""))
        for line in lines.dropFirst() { text += "\n" + line }
        Output().errorLine(text)
        exit(status.rawValue)
    }

    /// The 1-based position of the first argument that is not valid UTF-8:
    /// Swift would turn its bytes into U+FFFD silently, and pm would store a
    /// title the user never typed.
    private static func firstArgumentNotUTF8() -> Int? {
        for position in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[position] else { continue }
            let bytes = UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }
            if UTF8Validation.firstInvalidOffset(in: bytes) != nil { return position }
        }
        return nil
    }
}
