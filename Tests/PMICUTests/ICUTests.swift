import Testing

@testable import PMICU

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

    /// French writes the first of a month as an ordinal, in every form pm
    /// shows (`1er déc. 2026`, `mardi 1er décembre 2026`, `1er déc.`); other
    /// days and other languages are left as ICU writes them.
    @Test func frenchSaysTheFirstOfAMonthAsAnOrdinal() {
        // As pm registers French's `date.firstDay` from its table.
        ICUDateFormatter.writeFirstDay(as: "1er", language: "fr")
        // 2026-12-01T10:00:00Z and 2026-12-11T10:00:00Z
        let first = 1_796_119_200_000.0
        let eleventh = first + 10 * 86_400_000
        func skeleton(_ locale: String, _ skeleton: String, _ millis: Double) -> String? {
            ICUDateFormatter(locale: locale, skeleton: skeleton, timeZone: "UTC")?.string(millisecondsSince1970: millis)
        }
        #expect(skeleton("fr_FR", "yMMMd", first) == "1er déc. 2026")
        #expect(skeleton("fr_FR", "MMMd", first) == "1er déc.")
        #expect(skeleton("fr_FR", "yMMMMEEEEd", first) == "mardi 1er décembre 2026")
        #expect(skeleton("fr_FR", "yMMMdjmm", first) == "1er déc. 2026, 10:00")
        #expect(medium("fr_FR", first, time: true) == "1er déc. 2026, 10:00")
        #expect(skeleton("fr_FR", "yMMMd", eleventh) == "11 déc. 2026")
        #expect(skeleton("fr_FR", "yMd", first) == "01/12/2026")
        #expect(skeleton("en_US", "yMMMd", first) == "Dec 1, 2026")
        #expect(skeleton("ko_KR", "yMMMd", first) == "2026년 12월 1일")
        #expect(ICUDateFormatter.first("21 déc.", as: "1er") == "21 déc.")
        #expect(ICUDateFormatter.first("1", as: "1er") == "1")
        #expect(ICUDateFormatter.first("1 ", as: "1er") == "1 ")
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

    @Test func truncationFromTheBytesAgreesWithCuttingCharacterByCharacter() {
        let pieces = ["a", "Z", " ", "é", "한", "國", "😀", "ß", "…", "Ω", "テ", "e\u{301}", "👩\u{200D}💻", "\t", "~"]
        for _ in 0..<3_000 {
            let text = (0..<Int.random(in: 0...14)).map { _ in pieces.randomElement()! }.joined()
            let limit = Int.random(in: 1...12)
            // The reference: whole characters while they fit, then the ellipsis.
            var expected = text
            if TerminalCells.width(of: text) > limit {
                var kept = ""
                var used = 0
                for character in text {
                    let w = TerminalCells.width(of: character)
                    if used + w > limit - 1 { break }
                    kept.append(character)
                    used += w
                }
                expected = kept + "…"
            }
            let cut = TerminalCells.truncate(text, toWidth: limit)
            #expect(cut == expected, "\(text) at \(limit)")
            #expect(TerminalCells.fit(text, toWidth: limit) == (expected, TerminalCells.width(of: expected)))
            // Cut as bytes where it can be: the same text, the same width.
            if let prefix = TerminalCells.fitPrefix(text, toWidth: limit) {
                let made = String(decoding: text.utf8.prefix(prefix.kept), as: UTF8.self) + (prefix.ellipsis ? "…" : "")
                #expect(made == expected, "\(text) at \(limit)")
                #expect(prefix.width == TerminalCells.width(of: expected))
            } else {
                // Only text with code points that join or take no cells goes the long way.
                #expect(text.unicodeScalars.contains { TerminalCells.width(of: $0) == 0 || TerminalCells.mayJoin($0) })
            }
        }
    }

    @Test func posixNamesBecomeICULocales() {
        #expect(ICULocaleID.fromPOSIX("fr_FR.UTF-8@euro") == "fr_FR")
        #expect(ICULocaleID.fromPOSIX("C") == "en_US")
        #expect(ICULocaleID.fromPOSIX("de-DE") == "de_DE")
        #expect(ICULocaleID.fromPOSIX("") == "en_US")
        #expect(ICULocaleID.fromPOSIX("x;rm -rf") == "en_US")
    }
}

@Suite struct ICUTimeZoneAndNormalizerTests {
    /// Milliseconds since 1970 of a UTC date-time.
    func millis(_ days: Int, hour: Int = 0) -> Double { Double(days * 86_400 + hour * 3_600) * 1000 }

    @Test func zoneOffsetsFollowDaylightSavingAsTheZoneDatabaseSays() {
        // 2026-03-08 is the second Sunday of March: New York moves to -4 at 07:00Z.
        let march8 = 20_520
        #expect(ICUTimeZone.secondsEast("America/New_York", atMillis: millis(march8, hour: 6)) == -5 * 3_600)
        #expect(ICUTimeZone.secondsEast("America/New_York", atMillis: millis(march8, hour: 8)) == -4 * 3_600)
        // Paris in summer and winter, Seoul all year, UTC.
        #expect(ICUTimeZone.secondsEast("Europe/Paris", atMillis: millis(20_640)) == 2 * 3_600)
        #expect(ICUTimeZone.secondsEast("Europe/Paris", atMillis: millis(20_780)) == 3_600)
        #expect(ICUTimeZone.secondsEast("Asia/Seoul", atMillis: millis(20_780)) == 9 * 3_600)
        #expect(ICUTimeZone.secondsEast("UTC", atMillis: 0) == 0)
        // Half-hour and quarter-hour zones.
        #expect(ICUTimeZone.secondsEast("Asia/Kathmandu", atMillis: millis(20_780)) == 5 * 3_600 + 45 * 60)
    }

    @Test func unknownZonesAreNotTakenForGreenwich() {
        #expect(ICUTimeZone.isKnown("Asia/Seoul"))
        #expect(ICUTimeZone.isKnown("UTC"))
        #expect(!ICUTimeZone.isKnown("Foo/Bar"))
        #expect(!ICUTimeZone.isKnown(""))
        #expect(!ICUTimeZone.isKnown(String(repeating: "A/", count: 200)))
    }

    @Test func theSystemZoneIsOneICUKnows() throws {
        let zone = try #require(ICUTimeZone.systemDefault())
        #expect(ICUTimeZone.isKnown(zone) || zone.hasPrefix("GMT"))
    }

    @Test func normalizationComposesAndDecomposes() {
        let composed = "caf\u{E9} 한"
        let decomposed = "cafe\u{301} \u{1112}\u{1161}\u{11AB}"
        #expect(Array(ICUNormalizer.composed(decomposed).unicodeScalars) == Array(composed.unicodeScalars))
        #expect(Array(ICUNormalizer.decomposed(composed).unicodeScalars) == Array(decomposed.unicodeScalars))
        #expect(ICUNormalizer.composed("plain") == "plain")
        // A long text that grows when decomposed still comes back whole.
        let long = String(repeating: "\u{1E69}", count: 5_000)
        #expect(ICUNormalizer.decomposed(long).unicodeScalars.count == 15_000)
    }
}

/// The quick scan for unsafe characters never misses one.
@Suite struct TextSafetyScanTests {
    @Test func everyUnsafeCharacterIsCaughtByTheQuickScanAndItsLeadByteIsListed() {
        // Every code point below U+3000 (all the unsafe ones are there), and a few beyond.
        let scalars = (0..<0x3000).compactMap(Unicode.Scalar.init) + ["한", "😀", "\u{FEFF}"]
        for scalar in scalars where TextSafety.isUnsafe(scalar) {
            let text = "a" + String(scalar) + "b"
            #expect(TextSafety.mayBeUnsafe(text), "\(scalar.value)")
            if scalar.value >= 0x80 { #expect(TextSafety.unsafeLeadBytes.contains(Array(String(scalar).utf8)[0])) }
            #expect(TextSafety.escaped(text) != text)
        }
        #expect(!TextSafety.mayBeUnsafe("plain 한국어 équipe"))
    }
}

/// Without ICU, widths come from Swift's own Unicode tables and the East
/// Asian blocks: on the text people write (Latin, accents, Hangul, kana, CJK,
/// emoji, combining marks, invisibles) they agree with ICU's.
@Suite struct InvariantWidthTests {
    @Test func agreesWithICUOnEverydayText() {
        #expect(ICULibrary.isAvailable)
        let samples =
            "Réunion équipe 회의 준비 ㄱㅏ 会議の準備 カタカナ ｶﾀｶﾅ 中文 ＡＢＣ 👍🎉🚀 ✓ é \u{0301}\u{200B}\u{200D}\u{FEFF}\u{0E31}\u{0591}"
            + "\u{1F1EB}\u{1F1F7} Ωμέγα Привет עברית العربية ०१२ ﷺ ⌚ ☕ ⚡"
        var compared = 0
        for scalar in samples.unicodeScalars where scalar.value >= 0x300 {
            #expect(
                TerminalCells.invariantWidth(of: scalar) == TerminalCells.width(of: scalar),
                "U+\(String(scalar.value, radix: 16))")
            compared += 1
        }
        #expect(compared > 50)
        #expect(TerminalCells.invariantWidth(of: "한") == 2 && TerminalCells.invariantWidth(of: "\u{0301}") == 0)
    }
}

/// pm names a fixed offset `UTC` or `Etc/GMT-9` (found by name) rather than
/// `GMT+09:00` (parsed): ICU shows the same times under both.
@Suite struct FixedZoneNameTests {
    @Test(arguments: [("UTC", "GMT+00:00"), ("Etc/GMT-9", "GMT+09:00"), ("Etc/GMT+3", "GMT-03:00"), ("Etc/GMT-14", "GMT+14:00")])
    func namedAndParsedOffsetsShowTheSameTimes(named: String, parsed: String) throws {
        for locale in ["en_US", "fr_FR", "ko_KR"] {
            let a = try #require(ICUDateFormatter(locale: locale, dateStyle: .medium, timeStyle: .short, timeZone: named))
            let b = try #require(ICUDateFormatter(locale: locale, dateStyle: .medium, timeStyle: .short, timeZone: parsed))
            for millis in stride(from: 1_700_000_000_000.0, to: 1_800_000_000_000, by: 7_777_777_777) {
                #expect(a.string(millisecondsSince1970: millis) == b.string(millisecondsSince1970: millis), "\(locale) \(named)")
            }
        }
    }
}
