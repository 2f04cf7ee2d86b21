import ArgumentParser
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMSync
import PMViews

/// The root command.
public struct PM: ParsableCommand {
    /// What `pm --version` prints.
    static let version = PMVersion.string

    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "pm",
            abstract: help(.helpCommandRoot),
            version: version,
            subcommands: [
                Add.self, List.self, Show.self, Edit.self, Move.self, Delete.self, History.self, Undo.self, Redo.self,
                Start.self, Done.self, Assign.self, Unassign.self, Take.self, Label.self, Unlabel.self, Recur.self, Check.self,
                CommentCommand.self, View.self, News.self, BoardCommand.self, Merge.self, Sync.self,
                Remote.self, Status.self, Remind.self, Serve.self,
                Checkpoint.self,
                Import.self, Export.self, Completion.self, L10n.self, Complete.self, Generate.self,
            ]
        )
    }

    public init() {}
}

/// Helpers every command uses.
extension ProcessContext {
    var now: String { Timestamp.string(from: environment.now()) }

    func style(color: Bool) -> TextStyle {
        TextStyle(color: color, formatLocale: formatLocale, zone: environment.timeZone)
    }

    /// The lines an error is said with (without `pm: error:`), in the reader's language.
    func describe(_ error: Error) -> [String] {
        ErrorReport.describe(
            error, localizer: localizer, when: style(color: false).momentInSentence, formatLocale: formatLocale,
            reader: environment.user
        ).lines
    }

    /// The sentences a change is said with, in the reader's language.
    var sentences: Sentences { Sentences(localizer: localizer, style: style(color: false)) }

    /// A deadline as typed: ISO, today/tomorrow/+Nd/+Nw, the locale's short
    /// numeric date with or without the year, or the words of the reader's
    /// language (DESIGN.md §3; English's built-in forms work everywhere).
    func parseDate(_ text: String) throws -> CivilDate {
        try DateInput.parse(
            text, today: environment.today, words: DateWordTable.words(localizer: localizer, formatLocale: formatLocale),
            localFormat: LocalDateFormat(locale: formatLocale))
    }

    /// A deadline as typed, with its time of day when it has one
    /// (``DueInput``): the day, the time (in the zone named, else the
    /// reader's), and the words that named the day.
    func parseDeadline(_ text: String) throws -> (date: CivilDate, time: DueTime?, day: String) {
        let parts = try DueInput.split(text, words: DateWordTable.timeWords(localizer: localizer))
        guard let hour = parts.hour else { return (try parseDate(parts.day), nil, parts.day) }
        let date = parts.day.isEmpty ? environment.today : try parseDate(parts.day)
        let zone =
            parts.zone ?? DueTime.zoneName(of: environment.timeZone, on: date, hour: hour, minute: parts.minute)
        // Only a POSIX `TZ` of more than 23:59 from Greenwich names no zone pm can keep.
        guard let time = DueTime(hour: hour, minute: parts.minute, zone: zone) else { throw PMError.unknownZone(zone) }
        guard time.isWithinYears(on: date) else { throw PMError.dateOutOfRange(text) }
        return (date, time, parts.day)
    }

    /// A title as printed in a sentence: escaped, never raw.
    /// The day pm chose for a date typed in a form that reads two ways
    /// (`vendredi prochain`, `1/3`), on standard error (standard output is
    /// the new task's id): `Read 'next friday' as Friday, December 4, 2026.`
    func sayDayChosen(_ typed: String, _ date: CivilDate) {
        guard !DateInput.readsOneWay(typed, words: DateWordTable.words(localizer: localizer, formatLocale: formatLocale))
        else { return }
        output.errorLine(localizer.string(.messageDayChosen, shown(typed), .text(style(color: false).dateWithWeekday(date))))
    }

    func shown(_ text: String) -> MessageArgument { .text(TextSafety.escaped(text)) }

    func columnName(_ state: TaskState) -> MessageArgument { .text(localizer.string(StateNames.key(state))) }
}
