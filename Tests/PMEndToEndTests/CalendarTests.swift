import Foundation
import Testing

@Suite struct CalendarTests {
    /// Unfolds RFC 5545 content lines.
    func unfold(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n").filter { !$0.isEmpty }
    }

    func board() throws -> (PMBinary, [String: String]) {
        let pm = PMBinary()
        var ids: [String: String] = [:]
        for (title, due, body) in [
            ("Report, draft; v2 \\ final", "2026-11-25", "Line 1\nLine 2"),
            ("회의 준비: 아주 긴 한국어 제목이 칠십오 옥텟을 넘어서 접혀야 합니다 정말로 길게", "2026-11-30", ""),
            ("Past deadline", "2026-11-01", ""), ("Done already", "2026-11-28", ""), ("No deadline", "", ""),
        ] {
            var arguments = ["add", title, "--json"]
            if !due.isEmpty { arguments += ["--due", due] }
            if !body.isEmpty { arguments += ["--body", body] }
            let run = try pm.run(arguments)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            ids[title] = object["id"] as? String
        }
        try pm.run(["move", String(try #require(ids["Done already"]).prefix(8)), "done"])
        return (pm, ids)
    }

    @Test func theCalendarIsFramedEscapedAndAlarmedAtNineLocal() throws {
        let (pm, ids) = try board()
        let run = try pm.run(["export", "ics"])
        #expect(run.status == 0)
        let text = run.stdout
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(!text.replacingOccurrences(of: "\r\n", with: "").contains("\n"), "every line ends in CRLF")
        for line in text.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 75, "\(line)") }
        let lines = unfold(text)
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 4, "no event for an undated task; the done one cancelled")
        let uids = Set(lines.filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) })
        #expect(
            uids
                == Set(
                    [
                        ids["Report, draft; v2 \\ final"], ids["Past deadline"], ids.first { $0.key.hasPrefix("회의") }?.value,
                        ids["Done already"],
                    ]
                    .compactMap { $0 }))
        let doneEvent = try #require(text.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("Done already") })
        #expect(doneEvent.contains("STATUS:CANCELLED\r\n") && !doneEvent.contains("VALARM"))
        #expect(lines.contains("SUMMARY:Report\\, draft\\; v2 \\\\ final"))
        #expect(lines.contains("DESCRIPTION:Line 1\\nLine 2"))
        #expect(lines.contains { $0.hasPrefix("SUMMARY:회의 준비: 아주 긴") && $0.hasSuffix("길게") })
        #expect(lines.contains("DTSTART;VALUE=DATE:20261125"))
        #expect(lines.contains("DTEND;VALUE=DATE:20261126"))
        // Two alarms (the past deadline has none), each 9 hours after the floating midnight start.
        #expect(lines.filter { $0 == "TRIGGER;RELATED=START:PT9H" }.count == 2)
        let pastEvent = try #require(text.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("Past deadline") })
        #expect(!pastEvent.contains("VALARM"))
        // Stable: exporting again gives the same UIDs.
        let again = unfold(try pm.run(["export", "ics"]).stdout).filter { $0.hasPrefix("UID:") }
        #expect(Set(again.map { String($0.dropFirst(4)) }) == uids)
    }

    @Test func anIndependentParserImportsItAndEachAlarmIsNineLocal() throws {
        let (pm, _) = try board()
        let file = pm.home.file("board.ics")
        let run = try pm.run(["export", "ics", "--output", file], ["PM_REMIND_AT": "07:30"])
        // Three open deadlines and the done one, cancelled.
        #expect(run.stdout == "Wrote 4 events to \(file).\n")
        let script = """
            import sys, datetime, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            events = [c for c in cal.walk("VEVENT")]
            assert len(events) == 4, len(events)
            for e in events:
                start = e.decoded("DTSTART")
                assert isinstance(start, datetime.date) and not isinstance(start, datetime.datetime)
                for alarm in e.walk("VALARM"):
                    fire = datetime.datetime.combine(start, datetime.time()) + alarm.decoded("TRIGGER")
                    assert (fire.date(), fire.hour, fire.minute) == (start, 7, 30), fire
                    print("alarm", e.get("SUMMARY"), fire.isoformat())
            print("ok", len([e for e in events if str(e.get("STATUS")) != "CANCELLED"]))
            """
        let (status, text) = try runPython(script, [file], needs: ["icalendar"])
        #expect(status == 0, "\(text)")
        #expect(text.contains("ok 3"))
        #expect(text.components(separatedBy: "alarm ").count - 1 == 2)
    }

    /// The apps withdrew a reminder when its task was done or deleted: a
    /// calendar that re-imports the file sees the same UIDs cancelled, with a
    /// higher SEQUENCE and no alarm (read by Python's icalendar).
    @Test func doneAndDeletedTasksAreCancelledForAReimport() throws {
        let pm = PMBinary()
        let report = try pm.run(["add", "Report", "--due", "2026-12-01"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let talk = try pm.run(["add", "Talk", "--due", "2026-12-02"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let open = try pm.run(["add", "Open", "--due", "2026-12-03"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let before = pm.home.file("before.ics")
        let after = pm.home.file("after.ics")
        #expect(try pm.run(["export", "ics", "--output", before]).status == 0)
        _ = try pm.run(["done", report])
        _ = try pm.run(["delete", talk])
        let written = try pm.run(["export", "ics", "--output", after])
        #expect(written.stdout == "Wrote 3 events to \(after).\n", "the cancelled ones are events too")
        let script = """
            import sys, icalendar
            def events(path):
                cal = icalendar.Calendar.from_ical(open(path, "rb").read())
                return {str(e["UID"]): e for e in cal.walk("VEVENT")}
            before, after = events(sys.argv[1]), events(sys.argv[2])
            assert set(before) == set(after), (set(before), set(after))
            for uid, e in sorted(after.items(), key=lambda item: str(item[1]["SUMMARY"])):
                old = before[uid]
                status = str(e.get("STATUS"))
                alarms = len(list(e.walk("VALARM")))
                print(e["SUMMARY"], status, int(old["SEQUENCE"]), int(e["SEQUENCE"]), alarms)
            """
        let (status, text) = try runPython(script, [before, after], needs: ["icalendar"])
        #expect(status == 0, "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(text)")
        // SUMMARY STATUS old-SEQUENCE new-SEQUENCE alarms
        #expect(lines.contains("Open CONFIRMED 1 1 1"), "\(text)")
        #expect(lines.contains("Report CANCELLED 1 2 0"), "\(text)")
        #expect(lines.contains("Talk CANCELLED 1 2 0"), "\(text)")
        _ = open
    }

    /// A task's labels are its event's CATEGORIES (each escaped, RFC 5545
    /// §3.8.1.2) and its priority the event's PRIORITY (§3.8.1.9: 1 highest);
    /// a task with neither has neither.
    @Test func labelsAreCategoriesAndThePriorityIsRanked() throws {
        let pm = PMBinary()
        for (title, extra) in [
            ("Urgent", ["--priority", "urgent", "--label", "ops;infra,bug"]), ("High", ["--priority", "high"]),
            ("Normal", ["--priority", "normal"]), ("Low", ["--priority", "low", "--label", "back\\slash"]), ("Plain", []),
        ] {
            #expect(try pm.run(["add", title, "--due", "2026-12-01"] + extra).status == 0)
        }
        let text = try pm.run(["export", "ics"]).stdout
        func event(_ title: String) throws -> [String] {
            unfold(try #require(text.components(separatedBy: "BEGIN:VEVENT").first { $0.contains("SUMMARY:\(title)\r\n") }))
        }
        #expect(try event("Urgent").contains("CATEGORIES:bug,ops\\;infra") && (try event("Urgent")).contains("PRIORITY:1"))
        #expect(try event("High").contains("PRIORITY:3") && !(try event("High")).contains { $0.hasPrefix("CATEGORIES") })
        #expect(try event("Normal").contains("PRIORITY:5"))
        #expect(try event("Low").contains("PRIORITY:7") && (try event("Low")).contains("CATEGORIES:back\\\\slash"))
        #expect(!(try event("Plain")).contains { $0.hasPrefix("PRIORITY") || $0.hasPrefix("CATEGORIES") })
    }
}

/// A recurring series in the calendar (issue 48): one event with an RRULE,
/// whatever number of occurrences were done, which Python's icalendar reads
/// and dateutil's rrule expands to the very dates pm gives.
@Suite struct RecurringCalendarTests {
    @Test(arguments: ["FREQ=WEEKLY;BYDAY=MO,TH", "FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYMONTHDAY=31", "FREQ=YEARLY"])
    func aSeriesIsOneEventThatACalendarExpandsAsPMDoes(rule: String) throws {
        let pm = PMBinary()
        let id = try pm.run(["add", "Standup", "--every", rule, "--due", "2026-11-30"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try pm.run(["add", "Plain", "--due", "2026-12-03"])
        // Two occurrences done: the series moves on, and stays one event.
        var open = id
        var dates: [String] = []
        /// Done: the next occurrence's id and deadline.
        func complete() throws {
            #expect(try pm.run(["done", open]).status == 0)
            let list = try pm.run(["list", "--json"]).stdout
            let tasks = try #require(try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: Any]])
            let next = try #require(tasks.first { $0["title"] as? String == "Standup" && $0["state"] as? String == "todo" })
            open = try #require(next["id"] as? String)
            dates.append(try #require(next["due"] as? String))
        }
        for _ in 0..<2 { try complete() }
        let file = pm.home.file("board.ics")
        #expect(try pm.run(["export", "ics", "--output", file]).status == 0)
        // pm's own next dates, done one after another from the open occurrence.
        for _ in 0..<6 { try complete() }
        let script = """
            import sys, icalendar
            from dateutil.rrule import rrulestr
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            events = [e for e in cal.walk("VEVENT") if str(e["SUMMARY"]) == "Standup"]
            assert len(events) == 1, len(events)
            e = events[0]
            assert str(e.get("STATUS")) == "CONFIRMED"
            start = e.decoded("DTSTART")
            rule = e["RRULE"].to_ical().decode()
            import datetime
            it = iter(rrulestr(rule, dtstart=datetime.datetime.combine(start, datetime.time())))
            print(" ".join(next(it).date().isoformat() for _ in range(7)))
            print(len([c for c in cal.walk("VEVENT")]))
            """
        let (status, text) = try runPython(script, [file], needs: ["icalendar", "dateutil"])
        #expect(status == 0, "\(text)")
        let lines = text.split(separator: "\n").map(String.init)
        // The calendar's dates from the open occurrence are pm's, done one by one.
        #expect(lines.first == dates.suffix(7).joined(separator: " "), "\(rule): \(text) vs \(dates)")
        #expect(lines.last == "2", "one event for the series, one for the plain task: \(text)")
        // Stopped, the series is withdrawn (its UID cancelled) and the open task is an event of its own.
        #expect(try pm.run(["recur", open, "--stop"]).status == 0)
        let stopped = try pm.run(["export", "ics"]).stdout.replacing("\r\n ", with: "")
        let events = stopped.split(separator: "BEGIN:VEVENT").dropFirst().map { String($0) }
        let series = try #require(events.first { $0.contains("UID:" + id) })
        #expect(series.contains("STATUS:CANCELLED") && !series.contains("RRULE"), "\(series)")
        let single = try #require(events.first { $0.contains("UID:" + open) })
        #expect(single.contains("STATUS:CONFIRMED") && !single.contains("RRULE"), "\(single)")
    }

    /// A deadline with a time is an event at that time in its zone (a
    /// TZID), its alarm an hour before; read by Python's icalendar, the
    /// start is the same instant pm keeps. A whole day stays a DATE.
    @Test func aDeadlineWithATimeStartsAtItsTime() throws {
        let pm = PMBinary()
        try pm.run(["add", "Call", "--due", "2026-12-01 15:00 Europe/Paris"])
        try pm.run(["add", "Weekly", "--due", "2026-12-02 09:30 America/New_York", "--every", "week"])
        try pm.run(["add", "Whole day", "--due", "2026-12-03"])
        try pm.run(["add", "Offset", "--due", "2026-12-04T08:00+05:45"])
        let file = pm.home.file("board.ics")
        #expect(try pm.run(["export", "ics", "--output", file]).status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("DTSTART;TZID=Europe/Paris:20261201T150000\r\n"), "\(text)")
        #expect(text.contains("DTSTART:20261204T021500Z\r\n"), "\(text)")
        // Each TZID has its VTIMEZONE (RFC 5545 §3.2.19), with the change of clocks.
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:Europe/Paris\r\n"), "\(text)")
        #expect(text.contains("BEGIN:DAYLIGHT\r\nDTSTART:20270328T020000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"))
        #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"), "\(text)")
        let script = """
            import sys, datetime, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], "rb").read())
            for e in cal.walk("VEVENT"):
                start = e.decoded("DTSTART")
                if isinstance(start, datetime.datetime):
                    utc = start.astimezone(datetime.timezone.utc)
                    alarms = [start + a.decoded("TRIGGER") for a in e.walk("VALARM")]
                    assert all(start - fire == datetime.timedelta(hours=1) for fire in alarms), alarms
                    print(e.get("SUMMARY"), utc.strftime("%Y-%m-%dT%H:%M"), len(alarms))
                else:
                    print(e.get("SUMMARY"), start.isoformat())
                if e.get("RRULE"):
                    from dateutil.rrule import rrulestr
                    rule = rrulestr(e.get("RRULE").to_ical().decode(), dtstart=start)
                    print("next", [d.astimezone(datetime.timezone.utc).strftime("%m-%dT%H:%M") for d in rule[:2]])
            """
        let (status, out) = try runPython(script, [file], needs: ["icalendar", "dateutil"])
        #expect(status == 0, "\(out)")
        #expect(out.contains("Call 2026-12-01T14:00 1"), "\(out)")
        #expect(out.contains("Weekly 2026-12-02T14:30 1"), "\(out)")
        #expect(out.contains("Whole day 2026-12-03"), "\(out)")
        #expect(out.contains("Offset 2026-12-04T02:15 1"), "\(out)")
        // A weekly series keeps 09:30 in New York: the same UTC time in December.
        #expect(out.contains("next ['12-02T14:30', '12-09T14:30']"), "\(out)")
    }
}
