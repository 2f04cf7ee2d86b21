import ArgumentParser
import PMCore
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
        let localizer = ProcessContext.localizer
        let command: ParsableCommand
        do {
            command = try PM.parseAsRoot()
        } catch {
            let code = PM.exitCode(for: error)
            if code == .success {
                print(PM.fullMessage(for: error))
                exit(0)
            }
            let message = localizer.string(.errorFormat, .text(localizer.string(.errorUsage, .text(PM.message(for: error)))))
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
            print(PM.fullMessage(for: error))
            exit(0)
        } catch {
            let variables = ProcessContext.variables
            let style = TextStyle(
                color: false, formatLocale: LanguageResolver.formatLocale(environment: variables),
                timeZoneID: ProcessContext.timeZone(variables["TZ"]).identifier)
            let (lines, status) = ErrorReport.describe(
                error, localizer: localizer, when: style.dateTime, formatLocale: style.formatLocale)
            var text = localizer.string(.errorFormat, .text(lines.first ?? ""))
            for line in lines.dropFirst() { text += "\n" + line }
            Output().errorLine(text)
            exit(status.rawValue)
        }
    }
}
