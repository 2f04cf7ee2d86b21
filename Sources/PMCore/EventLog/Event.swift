/// One change to one task, complete enough to replay on another copy of the
/// board (DESIGN.md §4): who, when (wall time and hybrid logical clock), on
/// which replica, what kind of change, and for each field it set both the
/// new value and the value it replaced.
///
/// `kind` says what the change did (a task created, edited, moved, deleted,
/// restored); an undo or redo is such a change too, naming the event it
/// compensates in `undoes` or `redoes`, so folding never needs to know undo.
public struct Event: Equatable, Sendable {
    /// The event's own UUID.
    public var id: TaskID
    /// The replica (a copy of the board on one machine) that made it.
    public var replica: TaskID
    /// Who made it (`PM_USER`).
    public var author: String
    /// Wall time, ISO 8601 UTC, for people.
    public var at: String
    /// Hybrid logical clock, for ordering across replicas.
    public var clock: HybridClock
    /// The task it changes.
    public var task: TaskID
    public var kind: EventKind
    /// Field name → its new and replaced values. Names pm does not know are
    /// kept and folded into the task's unknown fields.
    public var fields: [String: FieldChangeValues]
    /// The event this one takes back (an undo), if any.
    public var undoes: TaskID?
    /// The undo this one takes back (a redo), if any.
    public var redoes: TaskID?
    /// The task's title after the change (before it, for a deletion): context
    /// so that a history line reads without folding the log.
    public var title: String?
    /// The changes (event ids) whose values the author saw in the fields
    /// this event sets, and for a deletion everything that kept the task:
    /// those it replaces. Nil in events written before pm kept them (their
    /// replaced values say it instead).
    public var seen: [TaskID]?
    /// Top-level keys written by a newer pm, kept as they are.
    public var unknownFields: [String: JSONValue]
    /// Its replica's signature (nil: a replica from before signatures).
    public var seal: EventSeal?

    public init(
        id: TaskID, replica: TaskID, author: String, at: String, clock: HybridClock, task: TaskID, kind: EventKind,
        fields: [String: FieldChangeValues] = [:], undoes: TaskID? = nil, redoes: TaskID? = nil, title: String? = nil,
        seen: [TaskID]? = nil, unknownFields: [String: JSONValue] = [:], seal: EventSeal? = nil
    ) {
        self.id = id
        self.replica = replica
        self.author = author
        self.at = at
        self.clock = clock
        self.task = task
        self.kind = kind
        self.fields = fields
        self.undoes = undoes
        self.redoes = redoes
        self.title = title
        self.seen = seen
        self.unknownFields = unknownFields
        self.seal = seal
    }
}

/// What a change did to its task.
public enum EventKind: Equatable, Hashable, Sendable {
    case created, edited, moved, deleted, restored
    /// A kind written by a newer pm: kept in the log, without effect here.
    case other(String)

    /// The name in the log.
    public var name: String {
        switch self {
        case .created: return "created"
        case .edited: return "edited"
        case .moved: return "moved"
        case .deleted: return "deleted"
        case .restored: return "restored"
        case .other(let name): return name
        }
    }

    public init(name: String) {
        switch name {
        case "created": self = .created
        case "edited": self = .edited
        case "moved": self = .moved
        case "deleted": self = .deleted
        case "restored": self = .restored
        default: self = .other(name)
        }
    }
}

/// A field's value after a change and the value it replaced (`null` for none).
public struct FieldChangeValues: Equatable, Sendable {
    public var new: JSONValue
    public var old: JSONValue
    /// The conflicting values the author saw beside `old` and chose against
    /// (picking a value resolves the conflict everywhere).
    public var conflicts: [JSONValue]
    /// Keys a newer pm wrote beside these, kept as they are.
    public var unknownFields: [String: JSONValue]

    public init(new: JSONValue, old: JSONValue, conflicts: [JSONValue] = [], unknownFields: [String: JSONValue] = [:]) {
        self.new = new
        self.old = old
        self.conflicts = conflicts
        self.unknownFields = unknownFields
    }
}

/// A hybrid logical clock value: wall milliseconds, and a counter that
/// orders events made within one millisecond or behind a clock that went
/// back. Ordering events by it (then replica, then id) is deterministic and
/// does not let a machine with a fast clock jump ahead for long.
public struct HybridClock: Comparable, Hashable, Sendable {
    /// The largest wall time a board can hold: 9999-12-31T23:59:59.999Z.
    public static let maximumMilliseconds: Int64 = 253_402_300_799_999

    public var milliseconds: Int64
    public var counter: Int64

    public init(milliseconds: Int64, counter: Int64 = 0) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    /// How far ahead of this machine's time a clock seen elsewhere is
    /// followed: seven days. A teammate's clock that is hours or days fast is
    /// followed, so a change made after seeing theirs comes after it in merge
    /// order; one further ahead is not, so that it cannot drag every copy's
    /// clock along (the gate leaves out clocks past thirty days).
    public static let adoptionLimit: Int64 = 7 * 86_400_000

    /// The clock of a new local event at wall time `now`, after `last` (the
    /// greatest clock seen) as far as ``adoptionLimit`` allows.
    public static func tick(after last: HybridClock?, now: Int64) -> HybridClock {
        let physical = min(max(now, 0), maximumMilliseconds)
        let followed = last.map { min($0, HybridClock(milliseconds: physical &+ adoptionLimit, counter: counterLimit)) }
        guard let followed, followed.milliseconds >= physical else { return HybridClock(milliseconds: physical) }
        return followed.successor
    }

    /// The largest counter a board holds (what a 32-bit reader takes).
    public static let counterLimit = Int64(Int32.max)

    /// The next clock: the counter counts, and carries into the
    /// milliseconds rather than pass what a board holds; at the very end of
    /// the range it stays (nothing pm writes is ever unreadable).
    public var successor: HybridClock {
        if counter < Self.counterLimit { return HybridClock(milliseconds: milliseconds, counter: counter + 1) }
        if milliseconds < Self.maximumMilliseconds { return HybridClock(milliseconds: milliseconds + 1) }
        return self
    }

    public static func < (a: HybridClock, b: HybridClock) -> Bool {
        (a.milliseconds, a.counter) < (b.milliseconds, b.counter)
    }
}
