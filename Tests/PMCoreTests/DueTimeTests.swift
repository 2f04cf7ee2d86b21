import FoundationEssentials
import PMCore
import Testing

/// A deadline's time of day (issue 48): what `--due` text holds a time, the
/// instant a time falls at in its zone (both clock changes), and the value
/// the log keeps, checked as the gate checks it.
@Suite struct DueTimeTests {
    static let english = TimeWords(hourMarks: ["o'clock"], before: ["at"])
    static let french = TimeWords(morning: [], afternoon: [], hourMarks: ["h", "heures"], minuteMarks: ["min"], before: ["à"])
    static let korean = TimeWords(morning: ["오전"], afternoon: ["오후"], hourMarks: ["시"], minuteMarks: ["분"])

    static let splits: [(String, TimeWords, String, Int?, Int, String?)] = [
        ("2026-12-01 15:00", english, "2026-12-01", 15, 0, nil),
        ("friday 9am", english, "friday", 9, 0, nil),
        ("friday at 9 pm", english, "friday", 21, 0, nil),
        ("12pm", english, "", 12, 0, nil),
        ("12am tomorrow", english, "tomorrow", 0, 0, nil),
        ("3 o'clock", english, "", 3, 0, nil),
        ("15:00 Europe/Paris", english, "", 15, 0, "Europe/Paris"),
        ("2026-12-01T15:00+09:00", english, "2026-12-01", 15, 0, "+09:00"),
        ("2026-12-01T15:00Z", english, "2026-12-01", 15, 0, "UTC"),
        ("demain 15h", french, "demain", 15, 0, nil),
        ("demain à 15h30", french, "demain", 15, 30, nil),
        ("1er décembre 9 heures", french, "1er décembre", 9, 0, nil),
        ("내일 오후 3시", korean, "내일", 15, 0, nil),
        ("금요일 오전 9시 30분", korean, "금요일", 9, 30, nil),
        ("오후 12시", korean, "", 12, 0, nil),
        // No time: the whole text is the day.
        ("friday", english, "friday", nil, 0, nil),
        ("15 décembre", french, "15 décembre", nil, 0, nil),
        ("12월 3일", korean, "12월 3일", nil, 0, nil),
        ("+3d", english, "+3d", nil, 0, nil),
        ("2026-12-01", english, "2026-12-01", nil, 0, nil),
    ]

    @Test(arguments: splits.indices) func whatATypedDeadlineHolds(index: Int) throws {
        let (text, words, day, hour, minute, zone) = Self.splits[index]
        let parts = try DueInput.split(text, words: words)
        #expect(parts.day == day && parts.hour == hour && parts.minute == minute && parts.zone == zone, "\(text): \(parts)")
    }

    @Test(arguments: ["25:00", "friday 13pm", "0am", "12:61", "9:30 Nowhere/Atlantis", "tomorrow Europe/Paris"])
    func impossibleTimesAreRefused(text: String) {
        #expect(throws: PMError.self) { try DueInput.split(text, words: Self.english) }
    }

    /// Instants checked against the zone database as glibc reads it (not
    /// ICU, which pm uses): each time, at each night the clocks change.
    @Test func instantsAcrossTheClockChanges() throws {
        let cases: [(String, String, Int, Int, String)] = [
            ("2026-03-29", "Europe/Paris", 2, 30, "2026-03-29T01:30:00.000Z"),
            ("2026-03-29", "Europe/Paris", 3, 0, "2026-03-29T01:00:00.000Z"),
            ("2026-03-29", "Europe/Paris", 1, 59, "2026-03-29T00:59:00.000Z"),
            ("2026-10-25", "Europe/Paris", 2, 30, "2026-10-25T00:30:00.000Z"),
            ("2026-10-25", "Europe/Paris", 3, 0, "2026-10-25T02:00:00.000Z"),
            ("2026-03-08", "America/New_York", 2, 30, "2026-03-08T07:30:00.000Z"),
            ("2026-11-01", "America/New_York", 1, 30, "2026-11-01T05:30:00.000Z"),
            ("2028-02-29", "Asia/Seoul", 23, 59, "2028-02-29T14:59:00.000Z"),
            ("2026-12-31", "+05:45", 0, 0, "2026-12-30T18:15:00.000Z"),
            ("2026-12-31", "-03:30", 23, 0, "2027-01-01T02:30:00.000Z"),
        ]
        for (day, zone, hour, minute, expected) in cases {
            let time = try #require(DueTime(hour: hour, minute: minute, zone: zone))
            let date = try #require(CivilDate(iso: day))
            let at = Timestamp.string(from: Date(timeIntervalSince1970: Double(time.instant(on: date))))
            #expect(at == expected, "\(day) \(time.time) \(zone)")
        }
    }

    /// A deadline's day and time as a reader elsewhere reads it.
    @Test func theReadersDayAndTime() throws {
        let paris = try #require(DueTime(hour: 23, minute: 0, zone: "Europe/Paris"))
        let deadline = Deadline(date: try #require(CivilDate(iso: "2026-12-01")), time: paris)
        let seoul = deadline.shown(in: try #require(Zone(identifier: "Asia/Seoul")))
        #expect(seoul.date.description == "2026-12-02" && seoul.time == "07:00")
        let newYork = deadline.shown(in: try #require(Zone(identifier: "America/New_York")))
        #expect(newYork.date.description == "2026-12-01" && newYork.time == "17:00")
        #expect(deadline.typed == "2026-12-01 23:00 Europe/Paris")
    }

    @Test func theValueTheLogKeeps() throws {
        let time = try #require(DueTime(hour: 9, minute: 5, zone: "America/New_York"))
        #expect(time.value == .object(["time": .string("09:05"), "zone": .string("America/New_York")]))
        #expect(DueTime(value: time.value) == time)
        let refused: [JSONValue] = [
            .object(["time": .string("9:05"), "zone": .string("UTC")]),
            .object(["time": .string("24:00"), "zone": .string("UTC")]),
            .object(["time": .string("09:05"), "zone": .string("../etc/passwd")]),
            .object(["time": .string("09:05"), "zone": .string("/etc/localtime")]),
            .object(["time": .string("09:05"), "zone": .string("UTC"), "extra": .null]),
            .object(["time": .string("09:05"), "zone": .string(String(repeating: "A", count: 65))]),
            .object(["time": .string("09:05"), "zone": .string("+24:00")]),
            .object(["time": .string("09:05"), "zone": .string("GMT+2359")]),
            .object(["time": .string("09:05"), "zone": .string("localtime")]),
            .string("09:05"),
        ]
        for value in refused { #expect(DueTime(value: value) == nil, "\(value)") }
        // A zone this system does not know is kept (another's may), and read as UTC.
        let unknown = try #require(DueTime(value: .object(["time": .string("09:05"), "zone": .string("Mars/Olympus")])))
        #expect(unknown.instant(on: try #require(CivilDate(iso: "2026-12-01"))) == 1_796_115_900)
    }
}
