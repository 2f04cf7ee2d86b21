/// What a card carries beside its title, body, deadline and assignees
/// (DESIGN.md §17): labels, a priority, a checklist and comments. Each part
/// is a field of its own in the log, so that concurrent changes to different
/// parts never conflict, and each merges as a team uses it (``MergeRule``).
///
/// Log fields:
/// - `priority`: `"low"`, `"normal"`, `"high"`, `"urgent"` or null (none);
///   the usual rule (one value shown, the others kept as a conflict);
/// - `label/NAME`: true or false, an observed-remove set as assignees are
///   (add wins);
/// - `item/ID/text`, `…/done`, `…/position`, `…/removed`: one checklist item
///   (``ChecklistItem``): its text by the usual rule, a tick or a removal
///   that any head makes stands (a tick or a removal is never lost to one
///   made at the same time), its position the latest;
/// - `comment/ID`: one comment (``Comment``), the latest value its author wrote.
public enum CardField: Equatable, Sendable {
    case assignee(String)
    case label(String)
    case priority
    case item(String, ItemPart)
    case comment(String)
    /// Its recurring deadline's rule (``Series``).
    case recur
    /// Its deadline's time of day and zone (``DueTime``), beside `due`.
    case dueTime

    /// A part of a checklist item.
    public enum ItemPart: String, CaseIterable, Sendable {
        case text, done, position, removed
    }

    /// The field a log name holds, or nil for title, body, due, state and
    /// names pm does not know.
    public init?(_ name: String) {
        let utf8 = name.utf8
        guard let first = utf8.first else { return nil }
        switch first {
        case UInt8(ascii: "a"):
            guard let name = Assignees.name(ofField: name) else { return nil }
            self = .assignee(name)
        case UInt8(ascii: "l"):
            guard utf8.starts(with: Labels.fieldPrefix.utf8) else { return nil }
            self = .label(String(name.dropFirst(Labels.fieldPrefix.count)))
        case UInt8(ascii: "p"):
            guard name == "priority" else { return nil }
            self = .priority
        case UInt8(ascii: "i"):
            // `item/` + 12 hex digits + `/` + the part.
            guard utf8.count > 18, utf8.starts(with: "item/".utf8) else { return nil }
            let rest = name.utf8.dropFirst(5)
            let id = Substring(rest.prefix(ItemID.length))
            let tail = rest.dropFirst(ItemID.length)
            guard ItemID.isValid(id), tail.first == UInt8(ascii: "/"),
                let part = ItemPart(rawValue: String(Substring(tail.dropFirst())))
            else { return nil }
            self = .item(String(id), part)
        case UInt8(ascii: "r"):
            guard name == "recur" else { return nil }
            self = .recur
        case UInt8(ascii: "d"):
            guard name == "dueTime" else { return nil }
            self = .dueTime
        case UInt8(ascii: "c"):
            guard utf8.starts(with: "comment/".utf8) else { return nil }
            let id = name.dropFirst(8)
            guard ItemID.isValid(id) else { return nil }
            self = .comment(String(id))
        default:
            return nil
        }
    }

    /// Its name in the log.
    public var name: String {
        switch self {
        case .assignee(let name): return Assignees.field(name)
        case .label(let name): return Labels.field(name)
        case .priority: return "priority"
        case .item(let id, let part): return "item/\(id)/\(part.rawValue)"
        case .comment(let id): return "comment/\(id)"
        case .recur: return "recur"
        case .dueTime: return "dueTime"
        }
    }

    /// The key beside a change's values that holds the item's text, for a
    /// tick, a removal or a place (``FieldChange/context``).
    public static let contextKey = "item"

    /// The text a line about this change names, when its values do not: an
    /// item's, for a change to its tick, removal or place.
    func context(in task: BoardTask?) -> String? {
        guard case .item(let id, let part) = self, part != .text else { return nil }
        return task?.allItems.first { $0.id == id }?.text
    }

    /// How concurrent changes to it merge.
    public var rule: MergeRule {
        switch self {
        case .assignee, .label, .item(_, .done), .item(_, .removed): return .anyTrue
        case .item(_, .position), .comment: return .latest
        case .priority, .item(_, .text), .recur, .dueTime: return .usual
        }
    }
}

/// How a field's concurrent values merge (DESIGN.md §9, §17).
public enum MergeRule: Sendable {
    /// One value shown, chosen by merge order; every other kept as a conflict.
    case usual
    /// True while any head says true: an add, a tick or a removal made at the
    /// same time as its opposite wins; never a conflict.
    case anyTrue
    /// The latest value in merge order; never a conflict (an order, a
    /// comment its own author rewrote).
    case latest

    /// The rule of a log field; title, body, due, state and unknown fields
    /// follow the usual rule.
    public static func of(_ name: String) -> MergeRule { CardField(name)?.rule ?? .usual }
}

/// How important a card is; none is no priority at all.
public enum Priority: String, CaseIterable, Comparable, Sendable {
    case low, normal, high, urgent

    /// Its rank: urgent first when sorting by priority.
    public var rank: Int {
        switch self {
        case .low: return 1
        case .normal: return 2
        case .high: return 3
        case .urgent: return 4
        }
    }

    public static func < (a: Priority, b: Priority) -> Bool { a.rank < b.rank }
}

/// An item's or a comment's id: 12 lowercase hex digits, unique on its card.
public enum ItemID {
    public static let length = 12

    public static func isValid<Text: StringProtocol>(_ text: Text) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// A new id from 48 random bits.
    public static func random<Generator: RandomNumberGenerator>(using generator: inout Generator) -> String {
        derived(from: generator.next())
    }

    /// The id of `bits`' low 48 bits: an import derives its ids from what it
    /// imports, so that importing again adds nothing.
    public static func derived(from bits: UInt64) -> String {
        let hex = String(bits & 0xFFFF_FFFF_FFFF, radix: 16)
        return String(repeating: "0", count: length - hex.count) + hex
    }

    /// A stable id for `text` (FNV-1a of its bytes): an imported item's or comment's.
    public static func derived(from text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return derived(from: hash)
    }
}

/// One checklist item, as the fold keeps it: removed items stay (with their
/// values), so that an undo of the removal brings them back whole.
public struct ChecklistItem: Equatable, Sendable {
    public var id: String
    /// Nil only for an item a change from elsewhere ticked without naming it.
    public var text: String?
    public var done: Bool
    /// Its place (``Position``); empty when none was given.
    public var position: String
    public var removed: Bool

    public init(id: String, text: String?, done: Bool = false, position: String = "", removed: Bool = false) {
        self.id = id
        self.text = text
        self.done = done
        self.position = position
        self.removed = removed
    }

    /// Whether the card shows it: named and not removed.
    public var isShown: Bool { text != nil && !removed }

    /// The order items are shown in: by position (its bytes), then id.
    static func precedes(_ a: ChecklistItem, _ b: ChecklistItem) -> Bool {
        if a.position != b.position { return a.position.utf8.lexicographicallyPrecedes(b.position.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }

    /// The longest item text, in characters.
    public static let textLimit = TaskInput.titleLimit
    /// Most items on one card, removed ones included.
    public static let cardLimit = 200

    /// The value of one of its parts in the log.
    func value(_ part: CardField.ItemPart) -> JSONValue {
        switch part {
        case .text: return text.map(JSONValue.string) ?? .null
        case .done: return .bool(done)
        case .position: return position.isEmpty ? .null : .string(position)
        case .removed: return .bool(removed)
        }
    }
}

/// One comment: append-only; its author may rewrite or withdraw it.
public struct Comment: Equatable, Sendable {
    public var id: String
    public var by: String
    /// When it was written, ISO 8601 UTC.
    public var at: String
    /// Nil once withdrawn.
    public var text: String?
    /// When its author last rewrote or withdrew it.
    public var edited: String?

    public init(id: String, by: String, at: String, text: String?, edited: String? = nil) {
        self.id = id
        self.by = by
        self.at = at
        self.text = text
        self.edited = edited
    }

    /// The longest comment, in characters.
    public static let textLimit = TaskInput.bodyLimit
    /// Most comments on one card, withdrawn ones included.
    public static let cardLimit = 200

    /// The order comments are shown in: oldest first, then by id.
    static func precedes(_ a: Comment, _ b: Comment) -> Bool {
        if a.at != b.at { return a.at.utf8.lexicographicallyPrecedes(b.at.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }

    /// Its value in the log and the board file.
    public var value: JSONValue {
        var members: [String: JSONValue] = ["by": .string(by), "at": .string(at), "text": text.map(JSONValue.string) ?? .null]
        if let edited { members["edited"] = .string(edited) }
        return .object(members)
    }

    /// The comment a log value holds, checked as pm writes it; nil for
    /// anything else.
    public init?(id: String, value: JSONValue) {
        guard case .object(let members) = value, members.count <= 4,
            case .string(let by)? = members["by"], case .string(let at)? = members["at"]
        else { return nil }
        let text: String?
        switch members["text"] {
        case .string(let written)?: text = written
        case .null?: text = nil
        default: return nil
        }
        var edited: String?
        if let value = members["edited"] {
            guard case .string(let time) = value else { return nil }
            edited = time
        }
        guard members.count == 3 + (edited == nil ? 0 : 1) else { return nil }
        self.init(id: id, by: by, at: at, text: text, edited: edited)
    }
}
