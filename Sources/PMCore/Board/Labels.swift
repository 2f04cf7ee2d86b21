/// A card's labels (DESIGN.md §17): a set of names, merged as assignees are
/// (each name its own field, `label/NAME`, true or false; add wins; never a
/// conflict). A name follows the rules of a user's name (``Assignees``): the
/// characters typed, in NFC, refused when nobody could type it back.
public enum Labels {
    /// The field name prefix of a label in the log.
    public static let fieldPrefix = "label/"

    /// The log's field for `name`.
    public static func field(_ name: String) -> String { fieldPrefix + name }

    /// Most labels on one card.
    public static let taskLimit = 100

    /// A label as it is kept (``Assignees/validName(_:)``'s rules).
    /// - Throws: ``PMError/badLabel(_:)`` for a name nobody could type back.
    public static func validName(_ typed: String) throws -> String {
        do { return try Assignees.validName(typed) } catch { throw PMError.badLabel(typed) }
    }

    /// A label typed to find or take away: one kept by an older rule still matches.
    public static func keptName(_ typed: String) throws -> String {
        do { return try Assignees.keptName(typed) } catch { throw PMError.badLabel(typed) }
    }

    /// The labels of `text`, split on commas (`--label bug,ui`), each checked,
    /// each once, in the order given.
    public static func names(_ text: String, existing: Bool = false) throws -> [String] {
        do { return try Assignees.names(text, existing: existing) } catch PMError.badAssignee(let typed) {
            throw PMError.badLabel(typed)
        }
    }
}

/// A checklist item's place: a fraction in base 36 (digits `0-9a-z`, no
/// trailing `0`), compared by its bytes, so that an item can always be put
/// between two others without moving either. Two people who put items at
/// the same place at once get the same position: the item ids then decide,
/// and neither is lost.
public enum Position {
    /// The longest position: longer ones are refused from elsewhere, and pm
    /// spreads the items out again before reaching it.
    public static let limit = 64

    private static let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)

    /// Whether `text` is a position pm writes.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= limit, bytes.last != UInt8(ascii: "0") else { return false }
        return bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }
    }

    private static func value(_ byte: UInt8) -> Int {
        byte <= 0x39 ? Int(byte) - 0x30 : Int(byte) - 0x61 + 10
    }

    /// A position after `lower` (nil: the start) and before `upper` (nil: the
    /// end). Valid positions with `lower < upper` always have one.
    public static func between(_ lower: String?, _ upper: String?) -> String {
        let low = Array((lower ?? "").utf8).map(value)
        // An upper bound not above the lower one bounds nothing.
        let bounded = upper.flatMap { upper in (lower ?? "").utf8.lexicographicallyPrecedes(upper.utf8) ? upper : nil }
        var high: [Int]? = bounded.map { Array($0.utf8).map(value) }
        var result: [UInt8] = []
        var index = 0
        while true {
            let a = index < low.count ? low[index] : 0
            let b = high.map { index < $0.count ? $0[index] : 0 } ?? 36
            if a == b {
                result.append(digits[a])
            } else if (a + b) / 2 > a {
                result.append(digits[(a + b) / 2])
                return String(decoding: result, as: UTF8.self)
            } else {
                // Next digits: b is one above a, so anything past a will do.
                result.append(digits[a])
                high = nil
            }
            index += 1
        }
    }

    /// `count` positions spread evenly: what items get when the positions
    /// between two of them have grown long.
    public static func spread(_ count: Int) -> [String] {
        guard count > 0 else { return [] }
        // Two digits give 1,295 places: far more than a card holds.
        let step = max(1, 1295 / (count + 1))
        return (1...count).map { index in
            let number = index * step
            var text = [digits[number / 36], digits[number % 36]]
            while text.last == UInt8(ascii: "0") { text.removeLast() }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
