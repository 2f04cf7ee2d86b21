import PMCore
import PMLocalization
import PMTestSupport
import PMViews
import Testing

/// Recurring rules typed in each shipped language (issue 48), and said
/// back: what pm says reads back as the same rule, for every rule pm can
/// hold; a part it cannot read is named.
@Suite struct RecurrenceNamesTests {
    static let locales = [("en_US.UTF-8", "en_US"), ("fr_FR.UTF-8", "fr_FR"), ("ko_KR.UTF-8", "ko_KR")]

    static func names(_ language: String, _ locale: String) -> RecurrenceNames {
        RecurrenceNames(
            localizer: Localizer(chain: LanguageResolver.messageChain(environment: ["LANG": language])),
            style: TextStyle(color: false, formatLocale: locale, zone: .utc))
    }

    @Test(arguments: [
        ("en_US.UTF-8", "week", "FREQ=WEEKLY"), ("en_US.UTF-8", "2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
        ("en_US.UTF-8", "every other week", "FREQ=WEEKLY;INTERVAL=2"), ("en_US.UTF-8", "month", "FREQ=MONTHLY"),
        ("en_US.UTF-8", "monday", "FREQ=WEEKLY;BYDAY=MO"), ("en_US.UTF-8", "Mondays and Thursdays", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("en_US.UTF-8", "weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("en_US.UTF-8", "month on the 1st", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("en_US.UTF-8", "the 15th of every month", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("en_US.UTF-8", "last friday of the month", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("en_US.UTF-8", "2nd tuesday of the month", "FREQ=MONTHLY;BYDAY=2TU"),
        ("en_US.UTF-8", "last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-1"), ("en_US.UTF-8", "year", "FREQ=YEARLY"),
        ("en_US.UTF-8", "every three days", "FREQ=DAILY;INTERVAL=3"), ("en_US.UTF-8", "daily", "FREQ=DAILY"),
        ("en_US.UTF-8", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("fr_FR.UTF-8", "chaque lundi", "FREQ=WEEKLY;BYDAY=MO"), ("fr_FR.UTF-8", "tous les lundis", "FREQ=WEEKLY;BYDAY=MO"),
        ("fr_FR.UTF-8", "tous les 15 du mois", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("fr_FR.UTF-8", "le 1er du mois", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("fr_FR.UTF-8", "tous les 2 mois", "FREQ=MONTHLY;INTERVAL=2"),
        ("fr_FR.UTF-8", "le dernier vendredi du mois", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("fr_FR.UTF-8", "toutes les deux semaines", "FREQ=WEEKLY;INTERVAL=2"),
        ("fr_FR.UTF-8", "jours ouvrés", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("fr_FR.UTF-8", "chaque année", "FREQ=YEARLY"),
        ("ko_KR.UTF-8", "매주 월요일", "FREQ=WEEKLY;BYDAY=MO"), ("ko_KR.UTF-8", "매월 1일", "FREQ=MONTHLY;BYMONTHDAY=1"),
        ("ko_KR.UTF-8", "2주마다", "FREQ=WEEKLY;INTERVAL=2"), ("ko_KR.UTF-8", "3일마다", "FREQ=DAILY;INTERVAL=3"),
        ("ko_KR.UTF-8", "월요일과 목요일", "FREQ=WEEKLY;BYDAY=MO,TH"), ("ko_KR.UTF-8", "월, 목", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("ko_KR.UTF-8", "매월 마지막 금요일", "FREQ=MONTHLY;BYDAY=-1FR"), ("ko_KR.UTF-8", "평일마다", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("ko_KR.UTF-8", "매달 마지막 날", "FREQ=MONTHLY;BYMONTHDAY=-1"), ("ko_KR.UTF-8", "매년", "FREQ=YEARLY"),
        // What a native reader found people type (a review of the tables).
        ("fr_FR.UTF-8", "une fois par semaine", "FREQ=WEEKLY"),
        ("fr_FR.UTF-8", "du lundi au vendredi", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("ko_KR.UTF-8", "매월 첫째 주 월요일", "FREQ=MONTHLY;BYDAY=1MO"), ("ko_KR.UTF-8", "2주에 한 번", "FREQ=WEEKLY;INTERVAL=2"),
        ("ko_KR.UTF-8", "월~금", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("ko_KR.UTF-8", "격주 월요일", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
        ("ko_KR.UTF-8", "격월", "FREQ=MONTHLY;INTERVAL=2"), ("ko_KR.UTF-8", "매월 마지막 주 금요일", "FREQ=MONTHLY;BYDAY=-1FR"),
    ])
    func whatPeopleTypeIsTheRuleTheyMean(language: String, typed: String, rrule: String) throws {
        let localizer = Localizer(chain: LanguageResolver.messageChain(environment: ["LANG": language]))
        #expect(try RecurrenceNames.parse(typed, localizer: localizer).rrule == rrule, "\(typed)")
    }

    @Test(arguments: [
        ("en_US.UTF-8", "every blursday", "blursday"), ("en_US.UTF-8", "every 5", "5"),
        ("en_US.UTF-8", "monday of the year", "year"), ("en_US.UTF-8", "day 40 of the month", "40"),
        ("en_US.UTF-8", "every 2000 weeks", "2000"), ("en_US.UTF-8", "", ""), ("fr_FR.UTF-8", "chaque lundy", "lundy"),
        ("ko_KR.UTF-8", "매주 월요일 3시", "시"),
        // Refused, never read as another rule: "every other month" is not "monthly on the 2nd".
        ("fr_FR.UTF-8", "un mois sur deux", "sur"),
    ])
    func aPartPMCannotReadIsNamed(language: String, typed: String, part: String) {
        let localizer = Localizer(chain: LanguageResolver.messageChain(environment: ["LANG": language]))
        #expect(throws: PMError.badRule(typed, part: part)) { try RecurrenceNames.parse(typed, localizer: localizer) }
    }

    /// Every kind of rule, said in each language, reads back as itself.
    @Test(arguments: locales) func whatPMSaysReadsBackAsTheSameRule(language: String, locale: String) throws {
        let names = Self.names(language, locale)
        var random = SeededGenerator(seed: 48)
        var rules: [Recurrence] = []
        for _ in 0..<400 {
            let interval = [1, 1, 2, 3, 12].randomElement(using: &random)!
            let frequency = Recurrence.Frequency.allCases.randomElement(using: &random)!
            var rule = Recurrence(frequency, interval: interval)
            if frequency == .weekly, Bool.random(using: &random) {
                rule = Recurrence(.weekly, interval: interval, weekdays: (1...7).filter { _ in Bool.random(using: &random) })
            } else if frequency == .monthly, Bool.random(using: &random) {
                let ordinal = [-1, 1, 2, 3, 4, 5].randomElement(using: &random)!
                let weekday = Int.random(in: 1...7, using: &random)
                rule =
                    Bool.random(using: &random)
                    ? Recurrence(.monthly, interval: interval, nthWeekday: .init(ordinal: ordinal, weekday: weekday))
                    : Recurrence(.monthly, interval: interval, monthDay: [-1, 1, 2, 15, 29, 31].randomElement(using: &random)!)
            }
            if let rule { rules.append(rule) }
        }
        for rule in rules {
            let said = names.describe(rule)
            do {
                #expect(try RecurrenceNames.parse(said, localizer: names.localizer) == rule, "\(rule.rrule): \(said)")
            } catch {
                Issue.record("\(rule.rrule): '\(said)' is refused: \(error)")
            }
        }
    }

    @Test func theRuleIsSaidAsANativeSpeakerWouldSayIt() {
        let rules: [(String, [String])] = [
            ("FREQ=WEEKLY;BYDAY=MO", ["every Monday", "chaque lundi", "매주 월요일"]),
            ("FREQ=WEEKLY;BYDAY=MO,TH", ["every Monday and Thursday", "chaque semaine, le lundi et le jeudi", "매주 월요일, 목요일"]),
            ("FREQ=MONTHLY;BYMONTHDAY=1", ["every month on day 1", "chaque mois, le 1er", "매월 1일"]),
            (
                "FREQ=MONTHLY;INTERVAL=2;BYDAY=-1FR",
                ["every 2 months on the last Friday", "tous les 2 mois, le dernier vendredi", "2개월마다 마지막 금요일"]
            ),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", ["every weekday", "chaque jour ouvré", "평일마다"]),
        ]
        for (rrule, said) in rules {
            guard let rule = Recurrence(rrule: rrule) else {
                Issue.record("\(rrule)")
                continue
            }
            for (index, (language, locale)) in Self.locales.enumerated() {
                #expect(Self.names(language, locale).describe(rule) == said[index])
            }
        }
    }
}
