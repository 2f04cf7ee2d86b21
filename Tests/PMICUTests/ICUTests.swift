import PMICU
import Testing

@Suite struct ICUTests {
    func medium(_ locale: String, _ millis: Double, time: Bool = false, zone: String = "UTC") -> String? {
        ICUDateFormatter(locale: locale, dateStyle: .medium, timeStyle: time ? .short : .none, timeZone: zone)?.string(
            millisecondsSince1970: millis)
    }

    // 2026-11-21T19:05:00Z
    let instant = 1_795_287_900_000.0

    @Test func datesUseEachLocalesMediumStyle() {
        #expect(medium("en_US", instant) == "Nov 21, 2026")
        #expect(medium("fr_FR", instant) == "21 nov. 2026")
        #expect(medium("ko_KR", instant) == "2026. 11. 21.")
        #expect(medium("en_US", instant, time: true) == "Nov 21, 2026, 7:05\u{202F}PM")
        #expect(medium("fr_FR", instant, time: true) == "21 nov. 2026, 19:05")
        #expect(medium("ko_KR", instant, time: true, zone: "Asia/Seoul") == "2026. 11. 22. 오전 4:05")
    }

    @Test func pluralCategoriesComeFromCLDR() {
        #expect(ICUPluralRules(locale: "en")?.category(for: 1) == "one")
        #expect(ICUPluralRules(locale: "en")?.category(for: 0) == "other")
        #expect(ICUPluralRules(locale: "fr")?.category(for: 0) == "one")
        #expect(ICUPluralRules(locale: "fr")?.category(for: 2) == "other")
        #expect(ICUPluralRules(locale: "ko")?.category(for: 1) == "other")
    }

    @Test func collationFollowsTheLocale() throws {
        let collator = try #require(ICUCollator(locale: "fr_FR"))
        let words = ["zoo", "école", "Zèbre", "fin", "eau"]
        #expect(words.sorted { collator.compare($0, $1) < 0 } == ["eau", "école", "fin", "Zèbre", "zoo"])
    }

    @Test func cellsCountEastAsianWidth() {
        #expect(TerminalCells.width(of: "안녕하세요") == 10)
        #expect(TerminalCells.width(of: "abc") == 3)
        #expect(TerminalCells.width(of: "e\u{301}cole") == 5)
        #expect(TerminalCells.width(of: "日本語") == 6)
        #expect(TerminalCells.width(of: "👍") == 2)
    }

    @Test func truncationKeepsWholeCharactersWithinTheWidth() {
        #expect(TerminalCells.truncate("안녕하세요", toWidth: 6) == "안녕…")
        #expect(TerminalCells.width(of: TerminalCells.truncate("안녕하세요", toWidth: 6)) <= 6)
        #expect(TerminalCells.truncate("e\u{301}e\u{301}e\u{301}", toWidth: 2) == "e\u{301}…")
        #expect(TerminalCells.truncate("short", toWidth: 10) == "short")
        #expect(TerminalCells.pad("한", toWidth: 4) == "한  ")
    }

    @Test func posixNamesBecomeICULocales() {
        #expect(ICULocaleID.fromPOSIX("fr_FR.UTF-8@euro") == "fr_FR")
        #expect(ICULocaleID.fromPOSIX("C") == "en_US")
        #expect(ICULocaleID.fromPOSIX("de-DE") == "de_DE")
        #expect(ICULocaleID.fromPOSIX("") == "en_US")
        #expect(ICULocaleID.fromPOSIX("x;rm -rf") == "en_US")
    }
}
