import PMICU
import Synchronization

/// Who does a card (DESIGN.md §13): zero or more user names, as `PM_USER`
/// gives them.
///
/// In the log, each name is a field of its own, `assignee/NAME`, set to
/// `true` (assigned) or `false` (unassigned), so that the fold's heads make
/// the names an observed-remove set: an unassignment takes away only the
/// assignments its author saw. A name is assigned while any of its heads
/// says so — an assignment and an unassignment of the same name made at
/// once leave it assigned (add wins) — and is never a conflict to resolve.
/// Assigning and unassigning different names at once both apply, as any
/// two fields do.
public enum Assignees {
    /// The field name prefix of an assignment in the log.
    public static let fieldPrefix = "assignee/"

    /// The longest name, in characters: the longest author an event may name.
    public static let nameLimit = TaskInput.titleLimit

    /// The log's field for `name`.
    public static func field(_ name: String) -> String { fieldPrefix + name }

    /// The name a log field assigns, or nil for any other field.
    public static func name(ofField field: String) -> String? {
        guard field.utf8.starts(with: fieldPrefix.utf8) else { return nil }
        return String(field.dropFirst(fieldPrefix.count))
    }

    /// Most names on one card, at the keyboard: a card is a team's, not a
    /// mailing list's.
    public static let taskLimit = 100

    /// Most names one event from elsewhere may set: more than any card pm
    /// lets a person build (``taskLimit``), even merged from several people's,
    /// so that one line can never cost a fold much.
    public static let eventLimit = 1_000

    /// A name as it is kept: the characters typed, in NFC (so that a name
    /// typed on two systems is one name), without spaces around it.
    /// - Throws: ``PMError/badAssignee(_:)`` for a name nobody could type
    ///   back: empty or invisible, with a comma (names are listed with
    ///   commas), a control, bidi or invisible formatting character (a
    ///   zero-width joiner makes `bob` a name bob never types), or longer
    ///   than ``nameLimit``.
    public static func validName(_ typed: String) throws -> String {
        let name = try keptName(typed)
        guard !name.unicodeScalars.contains(where: \.properties.isDefaultIgnorableCodePoint) else {
            throw PMError.badAssignee(typed)
        }
        // `-x` reads as an option: nobody could take it away without `--`.
        guard !name.hasPrefix("-") else { throw PMError.badAssignee(typed) }
        return name
    }

    /// The rules of pm 0.2 (``validName(_:)`` without the invisible
    /// formatting characters): what a board file or log it wrote may hold.
    /// Also how a name is typed to take it away: one an older pm let in can
    /// still be removed.
    public static func keptName(_ typed: String) throws -> String {
        let name = ICUNormalizer.composed(TaskInput.trimmed(typed))
        guard name.unicodeScalars.contains(where: TaskInput.isVisible), !name.contains(","),
            !name.unicodeScalars.contains(where: TextSafety.isUnsafe), name.count <= nameLimit
        else { throw PMError.badAssignee(typed) }
        return name
    }

    /// Whether a name read from a board file or this copy's log is one pm
    /// kept as it is (byte for byte: `==` would take an NFD name for its NFC
    /// form). Names an older pm accepted still read.
    public static func isValid(_ name: String) -> Bool {
        guard let kept = try? keptName(name) else { return false }
        return kept.utf8.elementsEqual(name.utf8)
    }

    /// ``isValid(_:)``, remembered: a board names the same people and labels
    /// on many cards, and each name's check normalizes it through ICU.
    public static func isValidRemembered(_ name: String) -> Bool {
        // By bytes: String's == takes an NFD name for its NFC form, which pm refuses.
        let key = Array(name.utf8)
        if let known = checked.withLock({ $0[key] }) { return known }
        let valid = isValid(name)
        checked.withLock { if $0.count < 4096 { $0[key] = valid } }
        return valid
    }

    private static let checked = Mutex<[[UInt8]: Bool]>([:])

    /// Whether a name in an event from elsewhere is one pm takes now: as
    /// ``isValid(_:)``, and one a person could type back (``validName(_:)``).
    public static func isAdmissible(_ name: String) -> Bool {
        guard let kept = try? validName(name) else { return false }
        return kept.utf8.elementsEqual(name.utf8)
    }

    /// The names of `text`, split on commas (`--to ana,ji-woo`), each checked,
    /// each once, in the order given.
    /// - Parameter existing: names to find or take away, not to give: an
    ///   older pm's may be typed too (``keptName(_:)``).
    public static func names(_ text: String, existing: Bool = false) throws -> [String] {
        var result: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = try existing ? keptName(String(part)) : validName(String(part))
            if !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// Where `name` is, or would go, among names sorted as ``sorted(_:)``
    /// keeps them, and whether it is there: by halving, as a card may hold many.
    public static func place(of name: String, in sortedNames: [String]) -> (index: Int, found: Bool) {
        var low = 0
        var high = sortedNames.count
        while low < high {
            let middle = (low + high) / 2
            if sortedNames[middle].utf8.lexicographicallyPrecedes(name.utf8) { low = middle + 1 } else { high = middle }
        }
        return (low, low < sortedNames.count && sortedNames[low].utf8.elementsEqual(name.utf8))
    }

    /// A task's names as kept: each once, sorted by their bytes (the same
    /// order on every copy, whatever the reader's language).
    public static func sorted<Names: Sequence>(_ names: Names) -> [String] where Names.Element == String {
        Array(Set(names)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
