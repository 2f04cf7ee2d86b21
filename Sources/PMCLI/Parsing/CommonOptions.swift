import ArgumentParser
import FoundationEssentials
import PMCore
import PMICU
import PMKit
import PMLocalization

/// `--color auto|always|never`.
enum ColorMode: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// The option every command takes: which board.
struct CommonOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(help(.helpBoard)))
    var board: String?
}

/// `--json`, offered only by commands that print something a script reads.
struct JSONOption: ParsableArguments {
    @Flag(name: .long, help: ArgumentHelp(help(.helpJson)))
    var json = false
}

/// `--color`, offered only by commands that colour their output.
struct ColorOption: ParsableArguments {
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
    CurrentRun.now.helpText(key)
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
            context.session.recoverOlderLog()
            try run(in: context)
        } catch {
            try? context.output.flush()
            throw error
        }
        // A full disk or a closed descriptor is an error, never a silent exit 0.
        try context.output.flush()
    }
}

/// The date words of the tables: `date.today`, `date.tomorrow`,
/// `date.dayAfterTomorrow`, weekday names and `+N` units, each a `|` list.
enum DateWordTable {
    static func words(localizer: Localizer, formatLocale: String = "en_US") -> DateWords {
        var words = DateWords(fold: { LooseText.fold($0) })
        let weekdays: [L10nKey] = [
            .dateMonday, .dateTuesday, .dateWednesday, .dateThursday, .dateFriday, .dateSaturday, .dateSunday,
        ]
        // The reader's language only (DESIGN.md §3); English's built-in forms work everywhere.
        for source in [localizer] {
            func each(_ key: L10nKey, _ body: (String) -> Void) {
                for word in source.string(key).split(separator: "|") where !word.isEmpty { body(LooseText.fold(String(word))) }
            }
            for (key, offset) in [(L10nKey.dateToday, 0), (.dateTomorrow, 1), (.dateDayAfterTomorrow, 2), (.dateYesterday, -1)] {
                each(key) { word in if words.offsets[word] == nil { words.offsets[word] = offset } }
            }
            for (index, key) in weekdays.enumerated() {
                each(key) { word in
                    if words.weekdays[word] == nil && words.offsets[word] == nil { words.weekdays[word] = index + 1 }
                }
            }
            each(.dateUnitDay) { word in if !words.weekUnits.contains(word) { words.dayUnits.append(word) } }
            each(.dateUnitWeek) { word in if !words.dayUnits.contains(word) { words.weekUnits.append(word) } }
            // The words of written dates ("-" stands for none).
            func set(_ key: L10nKey) -> Set<String> {
                var found = Set<String>()
                each(key) { word in if word != "-" { found.insert(word) } }
                return found
            }
            (words.next, words.nextWeek, words.thisWeek, words.inBefore, words.inAfter) = (
                set(.dateNext), set(.dateNextWeek), set(.dateThisWeek), set(.dateInBefore), set(.dateInAfter)
            )
            for (index, forms) in source.string(.dateNumberWords).split(separator: "|").enumerated() {
                for form in forms.split(separator: "/") where words.numbers[LooseText.fold(String(form))] == nil {
                    words.numbers[LooseText.fold(String(form))] = index + 1
                }
            }
            (words.fillers, words.monthMarks, words.yearMarks) = (set(.dateFillers), set(.dateMonthMarks), set(.dateYearMarks))
            words.daySuffixes = set(.dateDaySuffixes)
        }
        words.moreMonths = { months(locale: formatLocale) }
        return words
    }

    /// The words of a time of day (`date.time.*`): the reader's language's,
    /// and English's `am`/`pm`, which work everywhere as `tomorrow` does.
    static func timeWords(localizer: Localizer) -> TimeWords {
        func set(_ key: L10nKey) -> Set<String> {
            Set(
                localizer.string(key).split(separator: "|").map { LooseText.fold(String($0)) }.filter { $0 != "-" && !$0.isEmpty }
            )
        }
        var words = TimeWords(
            morning: set(.dateTimeMorning).union(["am"]), afternoon: set(.dateTimeAfternoon).union(["pm"]),
            hourMarks: set(.dateTimeHourMarks), minuteMarks: set(.dateTimeMinuteMarks), before: set(.dateTimeBefore),
            fold: { LooseText.fold($0) })
        (words.half, words.noon) = (set(.dateTimeHalf), set(.dateTimeNoon))
        words.afternoonHours = Set(set(.dateTimeAfternoonHours).compactMap { Int($0) }.filter { (1...11).contains($0) })
        // Suffixes are matched as typed (a Korean particle joins the word before it).
        words.untilSuffixes = localizer.string(.dateUntilSuffixes).split(separator: "|").map(String.init)
            .filter { $0 != "-" && !$0.isEmpty }
        let own = words.morning.union(words.afternoon).union(words.hourMarks).union(words.minuteMarks).union(words.before)
            .union(words.half).union(words.noon).union(words.untilSuffixes.map { LooseText.fold($0) })
        words.vocabulary = { own.union(DateWordTable.words(localizer: localizer).vocabulary) }
        return words
    }

    /// Month names and abbreviations as ICU writes them in `locale`, and in
    /// English (a built-in form, as `tomorrow` is), folded: `décembre`,
    /// `déc`, `december`, `dec`.
    static func months(locale: String) -> [String: Int] {
        var months: [String: Int] = [:]
        for name in ["en_US", locale] {
            for skeleton in ["MMMM", "MMM", "LLLL", "LLL"] {
                guard let formatter = ICUDateFormatter(locale: name, skeleton: skeleton, timeZone: "UTC") else { continue }
                for month in 1...12 {
                    guard let date = CivilDate(year: 2026, month: month, day: 15) else { continue }
                    let text = formatter.string(millisecondsSince1970: Double(date.daysSince1970) * 86_400_000)
                    let folded = LooseText.fold(text.replacing(".", with: ""))
                    // A month written as a number (Korean 12월) is read through date.monthMarks instead.
                    if !folded.isEmpty, !folded.contains(where: \.isNumber), months[folded] == nil { months[folded] = month }
                }
            }
        }
        return months
    }
}
