import PMICU

/// One event as one line of the log: compact JSON, keys sorted, ending in
/// `\n`. Strings escape every control and line-separator character, so a
/// line never holds a raw newline and is safe to `cat`.
///
/// Reading is strict (RELIABILITY.md): a key named twice, a missing or
/// mistyped field, a value a board cannot hold (a date outside years
/// 1–9999, a state pm does not know, a clock past 9999) are refused, never
/// guessed. Keys and kinds from a newer pm are kept as they are.
public enum EventCodec {
    /// The known fields of a task and what each must hold.
    static let taskFields: [String: FieldRule] = [
        "title": .text, "body": .text, "due": .dateOrNull, "state": .state, "createdAt": .text,
    ]

    enum FieldRule { case text, dateOrNull, state }

    /// The line for `event`, `\n` included.
    public static func line(_ event: Event) -> [UInt8] { line(event, withSignature: true) }

    /// The line, with or without the seal's signature (what is signed is the line without it).
    static func line(_ event: Event, withSignature: Bool) -> [UInt8] {
        var writer = JSONWriter()
        var members: [(String, (inout JSONWriter) -> Void)] = [
            ("at", { $0.string(event.at) }),
            ("by", { $0.string(event.author) }),
            ("hlc", { $0.raw("[\(event.clock.milliseconds),\(event.clock.counter)]") }),
            ("id", { $0.string(event.id.rawValue) }),
            ("kind", { $0.string(event.kind.name) }),
            ("replica", { $0.string(event.replica.rawValue) }),
            ("task", { $0.string(event.task.rawValue) }),
        ]
        if !event.fields.isEmpty {
            members.append(
                (
                    "fields",
                    { w in
                        compactObject(
                            event.fields.map { name, values in
                                (
                                    name,
                                    { compactObject(fieldMembers(of: values), into: &$0) }
                                )
                            }, into: &w)
                    }
                ))
        }
        if let undoes = event.undoes { members.append(("undoes", { $0.string(undoes.rawValue) })) }
        if let redoes = event.redoes { members.append(("redoes", { $0.string(redoes.rawValue) })) }
        if let title = event.title { members.append(("title", { $0.string(title) })) }
        if let seen = event.seen {
            members.append(
                (
                    "seen",
                    { w in
                        w.raw("[")
                        for (offset, id) in seen.enumerated() {
                            if offset > 0 { w.raw(",") }
                            w.string(id.rawValue)
                        }
                        w.raw("]")
                    }
                ))
        }
        if let seal = event.seal {
            members.append(("key", { $0.string(Base64URL.encode(seal.key)) }))
            if withSignature { members.append(("sig", { $0.string(Base64URL.encode(seal.signature)) })) }
        }
        let known = Set(members.map(\.0))
        for (key, value) in event.unknownFields where !known.contains(key) {
            members.append((key, { compact(value, into: &$0) }))
        }
        compactObject(members, into: &writer)
        writer.raw("\n")
        return writer.finishedChunks().flatMap { $0 }
    }

    /// Decodes one line (without its `\n`).
    /// - Throws: ``JSONReader/Failure`` with the offset in the line and why.
    /// Why a line is not an event: the 1-based column (in characters) and
    /// the reason (an invalid UTF-8 offset counts from the line's start).
    public struct LineFailure: Error, Equatable {
        public var column: Int
        public var reason: CorruptionReason
    }

    /// One line of a log (without its newline) as an event: strict UTF-8,
    /// one JSON object, nothing after it.
    /// - Throws: ``LineFailure``.
    public static func decode(line: UnsafeBufferPointer<UInt8>) throws -> Event {
        if let offset = UTF8Validation.firstInvalidOffset(in: Array(line)) {
            throw LineFailure(column: offset + 1, reason: .invalidUTF8(byteOffset: offset))
        }
        do {
            var reader = JSONReader(line)
            let event = try decode(&reader)
            reader.skipWhitespace()
            guard reader.atEnd else { throw reader.failure() }
            return event
        } catch let failure as JSONReader.Failure {
            let column = 1 + line[0..<min(failure.offset, line.count)].filter { $0 & 0xC0 != 0x80 }.count
            throw LineFailure(column: column, reason: line.isEmpty ? .empty : failure.reason)
        }
    }

    /// The same, from bytes.
    public static func decode(line: ArraySlice<UInt8>) throws -> Event {
        try line.withUnsafeBufferPointer { try decode(line: $0) }
    }

    static func decode(_ reader: inout JSONReader) throws -> Event {
        var id: TaskID?
        var replica: TaskID?
        var author: String?
        var at: String?
        var clock: HybridClock?
        var task: TaskID?
        var kind: EventKind?
        var fields: [String: FieldChangeValues] = [:]
        var undoes: TaskID?
        var redoes: TaskID?
        var title: String?
        var seen: [TaskID]?
        var publicKey: [UInt8]?
        var signature: [UInt8]?
        var unknown: [String: JSONValue] = [:]
        let start = reader.index
        try reader.readObject { key, reader in
            switch key {
            case "id": id = try BoardDecoder.readID(&reader, field: key)
            case "replica": replica = try BoardDecoder.readID(&reader, field: key)
            case "by": author = try BoardDecoder.readString(&reader, field: key)
            case "at": at = try BoardDecoder.readString(&reader, field: key)
            case "hlc": clock = try readClock(&reader)
            case "task": task = try BoardDecoder.readID(&reader, field: key)
            case "kind": kind = EventKind(name: try BoardDecoder.readString(&reader, field: key))
            case "fields": fields = try readFields(&reader)
            case "undoes": undoes = try BoardDecoder.readID(&reader, field: key)
            case "redoes": redoes = try BoardDecoder.readID(&reader, field: key)
            case "title": title = try BoardDecoder.readString(&reader, field: key)
            case "seen": seen = try BoardDecoder.readIDs(&reader, field: key)
            case "key": publicKey = try readBase64(&reader, field: key, count: 32)
            case "sig": signature = try readBase64(&reader, field: key, count: 64)
            default: unknown[key] = try reader.readValue()
            }
        }
        func missing(_ name: String) -> JSONReader.Failure { JSONReader.Failure(offset: start, reason: .field(name)) }
        guard let id else { throw missing("id") }
        guard let replica else { throw missing("replica") }
        guard let author else { throw missing("by") }
        guard let at else { throw missing("at") }
        guard let clock else { throw missing("hlc") }
        guard let task else { throw missing("task") }
        guard let kind else { throw missing("kind") }
        // A key and its signature come together, or not at all.
        guard (publicKey == nil) == (signature == nil) else { throw missing(publicKey == nil ? "key" : "sig") }
        return Event(
            id: id, replica: replica, author: author, at: at, clock: clock, task: task, kind: kind, fields: fields,
            undoes: undoes, redoes: redoes, title: title, seen: seen, unknownFields: unknown,
            seal: publicKey.map { EventSeal(key: $0, signature: signature ?? []) })
    }

    /// Exactly `count` bytes in base64url, unpadded.
    private static func readBase64(_ reader: inout JSONReader, field: String, count: Int) throws -> [UInt8] {
        let start = reader.index
        guard let bytes = Base64URL.decode(try BoardDecoder.readString(&reader, field: field)), bytes.count == count else {
            throw JSONReader.Failure(offset: start, reason: .field(field))
        }
        return bytes
    }

    /// `[milliseconds, counter]`, both whole numbers within what a board holds.
    private static func readClock(_ reader: inout JSONReader) throws -> HybridClock {
        let start = reader.index
        let failure = JSONReader.Failure(offset: start, reason: .field("hlc"))
        guard case .array(let parts) = try reader.readValue(), parts.count == 2,
            case .number(let msText) = parts[0], case .number(let counterText) = parts[1],
            let ms = Int64(msText), let counter = Int64(counterText),
            (0...HybridClock.maximumMilliseconds).contains(ms), (0...Int64(Int32.max)).contains(counter)
        else { throw failure }
        return HybridClock(milliseconds: ms, counter: counter)
    }

    /// A field change's members: new, old, the conflicts it resolved, unknown keys.
    private static func fieldMembers(of values: FieldChangeValues) -> [(String, (inout JSONWriter) -> Void)] {
        var members: [(String, (inout JSONWriter) -> Void)] = [
            ("new", { compact(values.new, into: &$0) }),
            ("old", { compact(values.old, into: &$0) }),
        ]
        if !values.conflicts.isEmpty { members.append(("conflicts", { compact(.array(values.conflicts), into: &$0) })) }
        for (key, value) in values.unknownFields where key != "new" && key != "old" && key != "conflicts" {
            members.append((key, { compact(value, into: &$0) }))
        }
        return members
    }

    /// `{"name": {"new": …, "old": …}, …}`; known task fields must hold values a board can.
    private static func readFields(_ reader: inout JSONReader) throws -> [String: FieldChangeValues] {
        var fields: [String: FieldChangeValues] = [:]
        try reader.readObject { name, reader in
            let start = reader.index
            var new: JSONValue = .null
            var old: JSONValue = .null
            var conflicts: [JSONValue] = []
            var unknown: [String: JSONValue] = [:]
            try reader.readObject { key, reader in
                switch key {
                case "new": new = try reader.readValue()
                case "old": old = try reader.readValue()
                case "conflicts":
                    guard case .array(let values) = try reader.readValue() else {
                        throw JSONReader.Failure(offset: start, reason: .field(name))
                    }
                    conflicts = values
                default: unknown[key] = try reader.readValue()
                }
            }
            if let rule = taskFields[name] {
                for value in [new, old] + conflicts where !holds(value, rule) {
                    throw JSONReader.Failure(offset: start, reason: .field(name))
                }
            }
            fields[name] = FieldChangeValues(new: new, old: old, conflicts: conflicts, unknownFields: unknown)
        }
        return fields
    }

    private static func holds(_ value: JSONValue, _ rule: FieldRule) -> Bool {
        switch (rule, value) {
        case (_, .null): return true
        case (.text, .string): return true
        case (.dateOrNull, .string(let text)): return CivilDate(iso: text) != nil
        case (.state, .string(let text)): return TaskState(rawValue: text) != nil
        default: return false
        }
    }

    // MARK: Compact JSON

    static func compactObject(_ members: [(String, (inout JSONWriter) -> Void)], into writer: inout JSONWriter) {
        writer.raw("{")
        for (offset, member) in members.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
            if offset > 0 { writer.raw(",") }
            writer.string(member.0)
            writer.raw(":")
            member.1(&writer)
        }
        writer.raw("}")
    }

    static func compact(_ value: JSONValue, into writer: inout JSONWriter) {
        switch value {
        case .null: writer.raw("null")
        case .bool(let flag): writer.raw(flag ? "true" : "false")
        case .number(let literal): writer.raw(literal)
        case .string(let text): writer.string(text)
        case .array(let elements):
            writer.raw("[")
            for (offset, element) in elements.enumerated() {
                if offset > 0 { writer.raw(",") }
                compact(element, into: &writer)
            }
            writer.raw("]")
        case .object(let members):
            compactObject(members.map { key, value in (key, { compact(value, into: &$0) }) }, into: &writer)
        }
    }
}
