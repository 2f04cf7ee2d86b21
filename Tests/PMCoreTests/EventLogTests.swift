import Foundation
import PMTestSupport
import Testing

@testable import PMCore

/// Events, their lines, the log file, and the fold.
@Suite struct EventLogTests {
    let ids = CountingIDs(prefix: "e0000000")
    let replica = TaskID("0000000a-0000-4000-8000-00000000000a")!

    func event(
        _ kind: EventKind, task: TaskID, at: String = "2026-11-21T10:00:00.000Z", ms: Int64 = 1_763_719_200_000,
        fields: [String: FieldChangeValues] = [:], undoes: TaskID? = nil
    ) -> Event {
        Event(
            id: ids.make(), replica: replica, author: "ji-woo", at: at, clock: HybridClock(milliseconds: ms), task: task,
            kind: kind, fields: fields, undoes: undoes)
    }

    func created(_ task: TaskID, title: String, createdAt: String = "2026-11-21T10:00:00.000Z") -> Event {
        event(
            .created, task: task, at: createdAt,
            fields: [
                "title": .init(new: .string(title), old: .null), "body": .init(new: .string(""), old: .null),
                "due": .init(new: .string("2026-12-01"), old: .null), "state": .init(new: .string("todo"), old: .null),
                "createdAt": .init(new: .string(createdAt), old: .null),
            ])
    }

    func decode(_ line: [UInt8]) throws -> Event {
        try line.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(UnsafeBufferPointer(rebasing: buffer[0..<(buffer.count - (buffer.last == 0x0A ? 1 : 0))]))
            let event = try EventCodec.decode(&reader)
            reader.skipWhitespace()
            guard reader.atEnd else { throw reader.failure() }
            return event
        }
    }

    // MARK: Lines

    @Test func everyKindRoundTripsThroughOneLine() throws {
        let task = ids.make()
        var samples = [
            created(task, title: "디자인 \u{1B}[2J \u{2028} \"quoted\" \\ réunion 👩‍💻"),
            event(.edited, task: task, fields: ["body": .init(new: .string("b\nc"), old: .string(""))]),
            event(.moved, task: task, fields: ["state": .init(new: .string("doing"), old: .string("todo"))]),
            event(.deleted, task: task, fields: ["title": .init(new: .null, old: .string("x"))]),
            event(.restored, task: task, undoes: ids.make()),
            event(.other("archived"), task: task, fields: ["labels": .init(new: .array([.string("v1")]), old: .null)]),
        ]
        samples[1].unknownFields = ["origin": .object(["device": .string("ipad"), "n": .number("1.50")])]
        samples[2].redoes = ids.make()
        for sample in samples {
            let line = EventCodec.line(sample)
            #expect(line.last == 0x0A && line.filter { $0 == 0x0A }.count == 1, "one line, ending in a newline")
            #expect(
                !String(decoding: line, as: UTF8.self).unicodeScalars.dropLast().contains { $0.value < 0x20 || $0 == "\u{2028}" })
            #expect(try decode(line) == sample)
            #expect(EventCodec.line(try decode(line)) == line, "byte-identical when written again")
        }
        let text = String(decoding: EventCodec.line(samples[0]), as: UTF8.self)
        #expect(
            text.hasPrefix("{\"at\":\"2026-11-21T10:00:00.000Z\",\"by\":\"ji-woo\",\"fields\":{\"body\":"), "sorted keys: \(text)"
        )
    }

    @Test(arguments: [
        (
            "duplicate key",
            #"{"at":"x","at":"y","by":"a","hlc":[1,0],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"}"#
        ),
        (
            "no task",
            #"{"at":"x","by":"a","hlc":[1,0],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002"}"#
        ),
        (
            "negative clock",
            #"{"at":"x","by":"a","hlc":[-1,0],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"}"#
        ),
        (
            "clock past 9999",
            #"{"at":"x","by":"a","hlc":[253402300800000,0],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"}"#
        ),
        (
            "huge counter",
            #"{"at":"x","by":"a","hlc":[1,1e400],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"}"#
        ),
        (
            "date a board cannot hold",
            #"{"at":"x","by":"a","fields":{"due":{"new":"10000-01-01","old":null}},"hlc":[1,0],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"}"#
        ),
        (
            "unknown state",
            #"{"at":"x","by":"a","fields":{"state":{"new":"later","old":"todo"}},"hlc":[1,0],"id":"00000000-0000-4000-8000-000000000001","kind":"moved","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"}"#
        ),
        (
            "duplicate field",
            #"{"at":"x","by":"a","fields":{"title":{"new":"a","old":"b"},"title":{"new":"c","old":"d"}},"hlc":[1,0],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"}"#
        ),
        (
            "trailing garbage",
            #"{"at":"x","by":"a","hlc":[1,0],"id":"00000000-0000-4000-8000-000000000001","kind":"edited","replica":"00000000-0000-4000-8000-000000000002","task":"00000000-0000-4000-8000-000000000003"} x"#
        ),
    ])
    func strictReadingRefusesWhatABoardCannotHold(name: String, line: String) {
        #expect(throws: (any Error).self, "\(name)") { try decode(Array(line.utf8)) }
    }

    // MARK: The file

    @Test func appendedEventsReadBackOldestFirstAndNewestFirst() throws {
        let dir = TemporaryDirectory()
        let log = EventLogFile(boardPath: dir.file("board.json"))
        #expect(log.path == dir.file("board.events.jsonl"))
        #expect(try log.readAll().events.isEmpty && log.readNewest(5).isEmpty, "no file is an empty log")
        let task = ids.make()
        // Enough events to cross several 64 KiB chunks.
        var written: [Event] = [created(task, title: "start")]
        for n in 0..<1500 {
            written.append(
                event(
                    .edited, task: task,
                    fields: ["body": .init(new: .string(String(repeating: "x", count: n % 90)), old: .string(""))]))
        }
        try log.append(Array(written[0..<700]))
        try log.append(Array(written[700...]))
        #expect(try log.readAll().events == written)
        #expect(try log.readNewest(20) == Array(written.suffix(20).reversed()))
        #expect(try log.readNewest(5000) == Array(written.reversed()), "all of it, across chunk boundaries")
    }

    /// A crash mid-append leaves a line without its newline: never committed.
    @Test func aTornLastLineIsSkippedAndCutOffByTheNextAppend() throws {
        let dir = TemporaryDirectory()
        let log = EventLogFile(boardPath: dir.file("board.json"))
        let task = ids.make()
        let first = created(task, title: "kept")
        try log.append([first])
        let torn = EventCodec.line(event(.edited, task: task))
        let handle = try #require(FileHandle(forWritingAtPath: log.path))
        handle.seekToEndOfFile()
        handle.write(Data(torn.prefix(torn.count / 2)))
        try handle.close()
        let contents = try log.readAll()
        #expect(contents.events == [first] && contents.tornLength == torn.count / 2)
        #expect(try log.readNewest(3) == [first])
        let next = event(.moved, task: task, fields: ["state": .init(new: .string("done"), old: .string("todo"))])
        try log.append([next])
        #expect(
            try log.readAll()
                == EventLogFile.Contents(
                    events: [first, next], committedLength: contents.committedLength + EventCodec.line(next).count, tornLength: 0)
        )
    }

    /// A damaged line that is not the last is refused with its line number
    /// by both readers, and never rewritten.
    @Test func aDamagedLineIsRefusedWithItsNumber() throws {
        let dir = TemporaryDirectory()
        let log = EventLogFile(boardPath: dir.file("board.json"))
        let task = ids.make()
        try log.append([created(task, title: "one")])
        let handle = try #require(FileHandle(forWritingAtPath: log.path))
        handle.seekToEndOfFile()
        handle.write(Data("{\"not\": \"an event\"}\n".utf8))
        try handle.close()
        try log.append((0..<3).map { _ in event(.edited, task: task) })
        let bytes = try #require(FileManager.default.contents(atPath: log.path))
        #expect(throws: PMError.logCorrupt(path: log.path, line: 2, column: 1, reason: .field("id"))) { try log.readAll() }
        #expect(try log.readNewest(3).count == 3, "the newest events are still readable")
        #expect(throws: PMError.logCorrupt(path: log.path, line: 2, column: 1, reason: .field("id"))) { try log.readNewest(4) }
        #expect(FileManager.default.contents(atPath: log.path) == bytes)
    }

    @Test func aPlantedLinkOrADirectoryIsNeverFollowed() throws {
        let dir = TemporaryDirectory()
        dir.write("victim", "precious")
        let log = EventLogFile(boardPath: dir.file("board.json"))
        try FileManager.default.createSymbolicLink(atPath: log.path, withDestinationPath: dir.file("victim"))
        #expect(throws: PMError.unsafeFile(path: log.path)) { try log.readAll() }
        #expect(throws: PMError.unsafeFile(path: log.path)) { try log.append([created(ids.make(), title: "x")]) }
        #expect(dir.read("victim") == Data("precious".utf8))
    }

    // MARK: The fold

    @Test func eventsFoldToTheTasksTheyDescribe() throws {
        let a = ids.make()
        let b = ids.make()
        var folded = FoldedTasks()
        folded.apply([
            created(b, title: "second", createdAt: "2026-11-21T10:00:01.000Z"),
            created(a, title: "first", createdAt: "2026-11-21T10:00:00.000Z"),
            event(
                .moved, task: a, at: "2026-11-21T11:00:00.000Z",
                fields: ["state": .init(new: .string("doing"), old: .string("todo"))]),
            event(
                .edited, task: a,
                fields: ["due": .init(new: .null, old: .string("2026-12-01")), "labels": .init(new: .array([]), old: .null)]),
            event(.other("archived"), task: a),
            event(.deleted, task: b),
        ])
        let tasks = folded.ordered
        #expect(tasks.map(\.title) == ["first"])
        #expect(tasks.first?.state == .doing && tasks.first?.due == nil && tasks.first?.unknownFields["labels"] == .array([]))
        folded.apply(created(b, title: "second", createdAt: "2026-11-21T10:00:01.000Z").with(kind: .restored))
        #expect(folded.ordered.map(\.title) == ["first", "second"], "creation order, restored in place")
        folded.apply(event(.edited, task: ids.make(), fields: ["title": .init(new: .string("ghost"), old: .null)]))
        #expect(folded.ordered.count == 2, "an edit of a task that is gone adds nothing")
    }

    /// Events made from the use cases' changes fold back to exactly the
    /// board those changes made, and read back as the same history.
    @Test(arguments: 0..<20)
    func eventsFromChangesFoldToTheBoardTheChangesMade(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed &* 31337)
        let ids = CountingIDs()
        var board = Board(id: ids.make())
        var events: [Event] = []
        var clock: HybridClock?
        var second = 0
        /// Runs one use case and records its change as an event.
        func record(_ now: String, _ change: (inout Board) throws -> Void) throws {
            // As BoardStore does: the board a change starts from is the fold of the log.
            board.tasks = FoldedTasks.fold(events).ordered
            let before = board.tasks
            let known = board.history.appended.count
            try change(&board)
            for entry in board.history.appended.dropFirst(known) {
                clock = HybridClock.tick(after: clock, now: Int64(Timestamp.milliseconds(of: now) ?? 0))
                events.append(
                    Event(
                        change: entry, before: before.first { $0.id == entry.taskID }, after: board.task(entry.taskID),
                        replica: replica, clock: clock!))
            }
        }
        for _ in 0..<30 {
            second += 1
            let now = "2026-11-21T10:\(String(format: "%02d", second / 60)):\(String(format: "%02d", second % 60)).000Z"
            let target = board.tasks.randomElement(using: &rng)?.id
            let title = "t\(Int.random(in: 0..<99, using: &rng))"
            let state = TaskState.allCases.randomElement(using: &rng)!
            switch (Int.random(in: 0..<6, using: &rng), target) {
            case (0, _), (_, nil):
                try record(now) {
                    try $0.add(
                        title: title, body: "b", due: CivilDate(iso: "2026-12-01"), id: ids.make(), eventID: ids.make(),
                        by: "ji-woo", at: now)
                }
            case (1, let id?): try record(now) { try $0.edit(id, .init(title: title), eventID: ids.make(), by: "a", at: now) }
            case (2, let id?):
                try record(now) { try $0.edit(id, .init(body: "x", due: .some(nil)), eventID: ids.make(), by: "a", at: now) }
            case (3, let id?): try record(now) { try $0.move(id, to: state, eventID: ids.make(), by: "a", at: now) }
            case (4, let id?):
                let task = try #require(board.task(id))
                let deletion = Transition(from: task, to: nil, eventID: ids.make(), at: now)
                try record(now) { try $0.delete(id, eventID: ids.make(), by: "a", at: now) }
                try record(now) { _ = try $0.revert(deletion, eventID: ids.make(), by: "a", at: now) }
            case (_, let id?): try record(now) { try $0.delete(id, eventID: ids.make(), by: "a", at: now) }
            }
        }
        var folded = FoldedTasks()
        folded.apply(events)
        #expect(
            folded.ordered.shown == board.tasks.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.shown, "seed \(seed)")
        let history = events.compactMap(HistoryEvent.init)
        for (a, b) in zip(history, board.history.appended) where a != b {
            Issue.record("seed \(seed): \(a) != \(b)")
            break
        }
        #expect(history.count == board.history.appended.count)
    }

    @Test func anEventIsFoundFromTheEndAcrossChunks() throws {
        let dir = TemporaryDirectory()
        let log = EventLogFile(boardPath: dir.file("board.json"))
        let task = ids.make()
        var written: [Event] = []
        for n in 0..<1200 {
            written.append(
                event(
                    .edited, task: task, fields: ["body": .init(new: .string(String(repeating: "y", count: n % 100)), old: .null)]
                ))
        }
        try log.append(written)
        for index in [0, 1, 599, 600, 1198, 1199] { #expect(try log.contains(eventID: written[index].id), "event \(index)") }
        #expect(try !log.contains(eventID: task), "a task id is not an event id")
        #expect(try !log.contains(eventID: ids.make()))
    }

    @Test func theClockTicksForwardEvenWhenTheWallClockGoesBack() {
        let first = HybridClock.tick(after: nil, now: 1000)
        let second = HybridClock.tick(after: first, now: 900)
        let third = HybridClock.tick(after: second, now: 1000)
        let fourth = HybridClock.tick(after: third, now: 1001)
        #expect(first < second && second < third && third < fourth)
        #expect(fourth == HybridClock(milliseconds: 1001, counter: 0))
    }
}

extension Event {
    func with(kind: EventKind) -> Event {
        var copy = self
        copy.kind = kind
        return copy
    }

}

extension EventLogTests {
    /// The index a merge reads: every id exactly, even when an unknown field
    /// nests an `"id"` key (then the line is decoded).
    @Test func theLogIndexIsExact() throws {
        let directory = TemporaryDirectory()
        let log = EventLogFile(boardPath: directory.file("board.json"))
        let task = TaskID("11111111-0000-4000-8000-000000000001")!
        var tricky = event(.edited, task: task, fields: ["title": .init(new: .string("x"), old: .string("y"))])
        tricky.unknownFields["aaa"] = .object(["id": .string("99999999-0000-4000-8000-000000000099")])
        var other = created(TaskID("11111111-0000-4000-8000-000000000002")!, title: "theirs")
        other.replica = TaskID("0000000b-0000-4000-8000-00000000000b")!
        let events = [created(task, title: "mine"), tricky, other]
        _ = try log.append(events)
        let index = try log.index()
        #expect(index.ids == Set(events.map(\.id)), "the nested id is not taken for the event's")
        #expect(index.events == 3 && index.committedLength == events.flatMap(EventCodec.line).count)
    }
}
