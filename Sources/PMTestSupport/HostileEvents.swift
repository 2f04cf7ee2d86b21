/// Event lines as an attacker writes them, for property and fuzz tests of
/// the gate (RELIABILITY.md, "bytes from elsewhere"): mostly well-formed
/// events of a few tasks, each with a chance of every kind of damage — keys
/// named like pm's own, clocks and times at and past their limits, ids
/// repeated with other content, unsafe and oversized text, values of the
/// wrong type, deep nesting, keys given twice, junk.
public struct HostileEvents<Random: RandomNumberGenerator> {
    public var random: Random
    /// The tasks the events are about (a few, so that they collide).
    public let tasks: [String]
    /// The replica the events claim most of the time.
    public let replica: String
    /// Around when they were made, in milliseconds since 1970.
    public let now: Int64
    private var ids: [String] = []

    public init(random: Random, replica: String, now: Int64, tasks: Int = 4) {
        self.random = random
        self.replica = replica
        self.now = now
        var made: [String] = []
        var generator = random
        for _ in 0..<tasks { made.append(Self.uuid(&generator)) }
        self.random = generator
        self.tasks = made
    }

    static func uuid(_ random: inout Random) -> String {
        let hex = Array("0123456789abcdef")
        var text = ""
        for position in 0..<32 {
            if [8, 12, 16, 20].contains(position) { text += "-" }
            text.append(position == 12 ? "4" : position == 16 ? "8" : hex[Int.random(in: 0..<16, using: &random)])
        }
        return text
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &random)] }

    /// A JSON string literal of `text`, escaped as JSON requires.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    mutating func text() -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: return ""
        case 1: return "\u{1B}[2J\u{1B}]0;pwned\u{7}"
        case 2: return "a\u{202E}b\u{2028}c\u{85}"
        case 3: return String(repeating: "long ", count: Int.random(in: 40...400, using: &random))
        case 4: return "e" + String(repeating: "\u{301}", count: Int.random(in: 1...3000, using: &random))
        case 5: return "\u{200B}"
        case 6: return "계획 👩‍👩‍👧‍👦 réunion"
        case 7: return "\"}, \"id\": \"" + Self.uuid(&random) + "\""
        default: return pick(["Plan", "Tâche", "리뷰", "Fix login", "x"])
        }
    }

    mutating func time() -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return "2026-02-30T10:00:00.000Z"
        case 1: return "2026-11-21T25:00:00.000Z"
        case 2: return "2026-11-21T10:00:00"
        case 3: return "0000-01-01T00:00:00.000Z"
        case 4: return "10000-01-01T00:00:00.000Z"
        case 5: return "yesterday"
        case 6: return "9999-12-31T23:59:59.999Z"
        default:
            let ms = now + Int64.random(in: -86_400_000...86_400_000, using: &random)
            return Self.iso(milliseconds: ms)
        }
    }

    /// `2026-11-21T10:00:00.000Z` for milliseconds since 1970 (1970–2099 here).
    public static func iso(milliseconds: Int64) -> String {
        var days = Int(milliseconds / 86_400_000)
        let rest = Int(milliseconds % 86_400_000)
        var year = 1970
        while true {
            let length = (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 366 : 365
            if days < length { break }
            days -= length
            year += 1
        }
        let leap = (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0))
        let months = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var month = 0
        while days >= months[month] {
            days -= months[month]
            month += 1
        }
        func pad(_ n: Int, _ width: Int) -> String {
            let digits = String(n)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month + 1, 2))-\(pad(days + 1, 2))T\(pad(rest / 3_600_000, 2)):"
            + "\(pad(rest / 60_000 % 60, 2)):\(pad(rest / 1000 % 60, 2)).\(pad(rest % 1000, 3))Z"
    }

    mutating func clock() -> String {
        let ms = now + Int64.random(in: -60_000...60_000, using: &random)
        switch Int.random(in: 0..<14, using: &random) {
        case 0: return "[\(ms),2147483647]"
        case 1: return "[\(ms),2147483648]"
        case 2: return "[253402300799999,2147483647]"
        case 3: return "[253402300800000,0]"
        case 4: return "[-1,0]"
        case 5: return "[\(ms).5,0]"
        case 6: return "[\(ms)]"
        case 7: return "[\(now + 3 * 86_400_000),\(Int.random(in: 0...5, using: &random))]"
        case 8: return "[\(now + 40 * 86_400_000),0]"
        case 9: return "\"\(ms)\""
        default: return "[\(ms),\(Int.random(in: 0...3, using: &random))]"
        }
    }

    mutating func value(for name: String, depth: Int = 0) -> String {
        switch Int.random(in: 0..<16, using: &random) {
        case 0: return "null"
        case 1: return pick(["1", "-0", "1e999", "1.5", "12345678901234567890123"])
        case 2: return pick(["true", "false"])
        case 3:
            return "[" + (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.quoted(text()) }.joined(separator: ",") + "]"
        case 4:
            let nested = depth < 3 ? value(for: name, depth: depth + 1) : "0"
            return "{\"a\":\(nested)}"
        case 5: return String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        case 6: return Self.quoted(pick(["todo", "doing", "done", "DONE", "later"]))
        case 7: return Self.quoted(pick(["2026-12-01", "2026-02-30", "9999-12-31", "0000-01-01", "12/1"]))
        case 8: return Self.quoted(time())
        default:
            switch name {
            case "state": return Self.quoted(pick(["todo", "doing", "done"]))
            case "due": return chance(50) ? "null" : Self.quoted("2026-12-0\(Int.random(in: 1...9, using: &random))")
            case "createdAt": return Self.quoted(time())
            default: return Self.quoted(text())
            }
        }
    }

    mutating func fields(kind: String) -> String {
        var names: [String] = []
        if kind == "created" || kind == "restored" {
            names = ["title", "body", "due", "state", "createdAt"].filter { _ in !chance(5) }
        } else {
            names = [pick(["title", "body", "due", "state"])]
        }
        if chance(15) {
            names.append(pick(["conflicts", "restored", "id", "updatedAt", "overdue", "priority", "", "na\u{1B}me", "title"]))
        }
        let members = names.map { name -> String in
            var change = "\"new\":\(value(for: name)),\"old\":\(chance(70) ? "null" : value(for: name))"
            if chance(10) { change += ",\"conflicts\":[\(value(for: name))]" }
            if chance(5) { change += ",\"new\":\(value(for: name))" }
            return Self.quoted(name) + ":{" + change + "}"
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// One line (without its newline).
    public mutating func line() -> String {
        if chance(4) { return pick(["not json", "{", "{}", "[]", "\u{0}\u{0}", "{\"id\":1}", ""]) }
        var id = Self.uuid(&random)
        if chance(10), let earlier = ids.randomElement(using: &random) { id = earlier }
        if chance(2) { id = id.uppercased() }
        ids.append(id)
        let kind = chance(30) ? "created" : pick(["edited", "moved", "deleted", "restored", "archived", "ki\u{7}nd"])
        var members: [(String, String)] = [
            ("at", Self.quoted(chance(85) ? Self.iso(milliseconds: now) : time())),
            ("by", Self.quoted(chance(85) ? "camille" : text())),
            ("fields", fields(kind: kind)),
            ("hlc", chance(70) ? "[\(now + Int64.random(in: 0...1000, using: &random)),0]" : clock()),
            ("id", Self.quoted(id)),
            ("kind", Self.quoted(kind)),
            ("replica", Self.quoted(chance(90) ? replica : Self.uuid(&random))),
            ("task", Self.quoted(pick(tasks))),
        ]
        if chance(30) { members.append(("title", Self.quoted(text()))) }
        if chance(5) { members.append(("undoes", Self.quoted(ids.randomElement(using: &random) ?? id))) }
        if chance(5) { members.append((pick(["extra", "zz", "fields", "id"]), value(for: "x"))) }
        if chance(3) { members.removeAll { $0.0 == pick(["id", "hlc", "task", "kind", "at"]) } }
        return "{" + members.map { Self.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// `count` lines; the first few create the tasks, so that later ones apply.
    public mutating func lines(_ count: Int) -> [String] {
        var result: [String] = []
        for (offset, task) in tasks.enumerated() {
            let at = Self.iso(milliseconds: now)
            let id = Self.uuid(&random)
            result.append(
                "{\"at\":\"\(at)\",\"by\":\"camille\",\"fields\":{\"body\":{\"new\":\"\",\"old\":null},"
                    + "\"createdAt\":{\"new\":\"\(at)\",\"old\":null},\"due\":{\"new\":null,\"old\":null},"
                    + "\"state\":{\"new\":\"todo\",\"old\":null},\"title\":{\"new\":\"Task \(offset)\",\"old\":null}},"
                    + "\"hlc\":[\(now - 1000 + Int64(offset)),0],\"id\":\"\(id)\",\"kind\":\"created\",\"replica\":\"\(replica)\","
                    + "\"task\":\"\(task)\",\"title\":\"Task \(offset)\"}")
        }
        for _ in 0..<count { result.append(line()) }
        return result
    }
}
