import PMICU

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

    /// A name as it is kept: the characters typed, in NFC (so that a name
    /// typed on two systems is one name), without spaces around it.
    /// - Throws: ``PMError/badAssignee(_:)`` for a name nobody could type
    ///   back: empty or invisible, with a comma (names are listed with
    ///   commas), a control or bidi character, or longer than ``nameLimit``.
    public static func validName(_ typed: String) throws -> String {
        let name = ICUNormalizer.composed(TaskInput.trimmed(typed))
        guard name.unicodeScalars.contains(where: TaskInput.isVisible), !name.contains(","),
            !name.unicodeScalars.contains(where: TextSafety.isUnsafe), name.count <= nameLimit
        else { throw PMError.badAssignee(typed) }
        return name
    }

    /// Whether a name from elsewhere (a log, a board file) is one pm would keep as it is.
    public static func isValid(_ name: String) -> Bool {
        // Byte for byte: `==` would take an NFD name for its NFC form.
        guard let kept = try? validName(name) else { return false }
        return kept.utf8.elementsEqual(name.utf8)
    }

    /// The names of `text`, split on commas (`--to ana,ji-woo`), each checked,
    /// each once, in the order given.
    public static func names(_ text: String) throws -> [String] {
        var result: [String] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = try validName(String(part))
            if !result.contains(name) { result.append(name) }
        }
        return result
    }

    /// A task's names as kept: each once, sorted by their bytes (the same
    /// order on every copy, whatever the reader's language).
    public static func sorted<Names: Sequence>(_ names: Names) -> [String] where Names.Element == String {
        Array(Set(names)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
