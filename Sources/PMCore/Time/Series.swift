/// A recurring card's place in its series (issue 48): the rule its
/// deadlines follow, the series it belongs to, and the day the rule's dates
/// count from. A card holds it in one log field, `recur`, by the usual rule;
/// null (none) ends the series.
///
/// When an occurrence is done, the next one is made with an id derived from
/// the occurrence done (``nextID(after:)``), never drawn at random: two people completing the same occurrence on two machines, even
/// on different days, make one next card, which sync folds into one (a
/// creation of a card that exists adds its values, as an import made twice
/// does).
public struct Series: Hashable, Sendable {
    public var rule: Recurrence
    /// The id of the series' first card.
    public var series: TaskID
    /// The day the rule's dates count from (its interval, its weekday when
    /// the rule names none): the deadline the rule was set on.
    public var start: CivilDate
    /// The last day an occurrence may fall on (an RRULE's UNTIL); nil: none.
    public var until: CivilDate?

    public init(rule: Recurrence, series: TaskID, start: CivilDate, until: CivilDate? = nil) {
        self.rule = rule
        self.series = series
        self.start = start
        self.until = until
    }

    /// The log's and the board file's value: `{"rule", "series", "start"}`,
    /// and `"until"` when the series ends on a day.
    public var value: JSONValue {
        var members: [String: JSONValue] = [
            "rule": .string(rule.rrule), "series": .string(series.rawValue), "start": .string(start.description),
        ]
        if let until { members["until"] = .string(until.description) }
        return .object(members)
    }

    /// A rule and its UNTIL (a date: `UNTIL=20270115`) from an RRULE value
    /// as ``rrule`` writes it; nil for anything else.
    public static func rule(fromRRULE text: String) -> (Recurrence, CivilDate?)? {
        var parts = text.uppercased().split(separator: ";").map(String.init)
        var until: CivilDate?
        if let index = parts.firstIndex(where: { $0.hasPrefix("UNTIL=") }) {
            let digits = Array(parts.remove(at: index).dropFirst(6))
            guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let date = CivilDate(iso: String(digits[0..<4]) + "-" + String(digits[4..<6]) + "-" + String(digits[6..<8]))
            else { return nil }
            until = date
        }
        guard let rule = Recurrence(rrule: parts.joined(separator: ";")) else { return nil }
        return (rule, until)
    }

    /// The rule as a calendar's RRULE value, with its UNTIL.
    public var rrule: String {
        guard let until else { return rule.rrule }
        return rule.rrule + ";UNTIL=" + until.description.filter { $0 != "-" }
    }

    /// The series a value holds; nil for anything pm would not write
    /// itself (another key, a rule not in the form ``Recurrence/rrule``
    /// writes, a day outside the years a board holds), so that every copy
    /// reads the same bytes the same way.
    public init?(value: JSONValue) {
        guard case .object(let members) = value, members.count == (members["until"] == nil ? 3 : 4),
            case .string(let text)? = members["rule"],
            text.utf8.count <= 100, let rule = Recurrence(rrule: text), rule.rrule == text,
            case .string(let series)? = members["series"], let id = TaskID(series), id.rawValue == series,
            case .string(let day)? = members["start"], let start = CivilDate(iso: day), start.description == day
        else { return nil }
        var until: CivilDate?
        if let last = members["until"] {
            guard case .string(let day) = last, let date = CivilDate(iso: day), date.description == day else { return nil }
            until = date
        }
        self.init(rule: rule, series: id, start: start, until: until)
    }

    /// The next occurrence's deadline once the one due `due` is done on
    /// `today`: the rule's first date after it — or, done late, its first
    /// date from today on, so that periods missed make one card, not one
    /// each. Nil when the calendar ends first.
    public func next(after due: CivilDate?, today: CivilDate) -> CivilDate? {
        let yesterday = today.adding(days: -1) ?? today
        guard let next = rule.occurrence(after: max(due ?? yesterday, yesterday), start: start) else { return nil }
        if let until, next > until { return nil }
        return next
    }

    /// The id of the occurrence that follows `task`: a name-based UUID
    /// (``TaskID/named(_:)``) of the task done, the same on every copy and
    /// whatever the rule or series became since — a task done, reopened and
    /// done again, even after its rule was stopped and set anew, has one
    /// next occurrence.
    public static func nextID(after task: TaskID) -> TaskID {
        TaskID.named(Array("pm-next-occurrence\u{0}\(task.rawValue)".utf8))
    }
}
