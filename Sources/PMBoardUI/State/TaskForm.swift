import PMCore

/// The add and edit form (the apps' form sheet): title, body (several
/// lines), deadline (typed in any form `--due` accepts), who does it
/// (names, comma-separated), priority (a word in any shipped language),
/// labels (comma-separated) and the checklist (an item a line, `[x]` for a
/// ticked one), edited at a caret.
public struct TaskForm: Equatable, Sendable {
    public enum Field: Int, CaseIterable, Sendable { case title, body, due, assignees, priority, labels, checklist }

    /// The task edited; nil when adding.
    public var task: TaskID?
    public var title: String
    public var body: String
    public var due: String
    /// Who does it: names as `pm add --to` takes them (`ana, ji-woo`).
    public var assignees: String
    /// The priority's word (empty: none).
    public var priority = ""
    /// Labels as `pm add --label` takes them (`bug, ui`).
    public var labels = ""
    /// The checklist, an item a line: `[x] Done thing`, `[ ] To do`.
    public var checklist = ""
    /// The items the checklist showed when the form opened: what its lines
    /// are compared with on saving (an item a colleague added meanwhile stays).
    public var items: [ChecklistItem] = []
    /// What the fields held when the form opened: Esc asks before losing a change.
    public let original: [String]
    public var focus = Field.title
    /// The caret, in characters of the focused field.
    public var caret: Int
    /// Esc was pressed on a changed form: the next key says whether to discard.
    public var confirmingDiscard = false
    /// The task changed on disk while the form was open.
    public var changedUnderneath = false

    public init(
        task: TaskID? = nil, title: String = "", body: String = "", due: String = "", assignees: String = "",
        priority: String = "", labels: String = "", checklist: String = ""
    ) {
        self.task = task
        self.title = title
        self.body = body
        self.due = due
        self.assignees = assignees
        (self.priority, self.labels, self.checklist) = (priority, labels, checklist)
        original = [title, body, due, assignees, priority, labels, checklist]
        caret = title.count
    }

    /// Every field's text, in ``Field`` order.
    public var texts: [String] { [title, body, due, assignees, priority, labels, checklist] }

    public var changed: Bool { texts != original }

    /// A checklist as the form shows it: an item a line, ticked ones `[x]`.
    public static func checklistText(_ items: [ChecklistItem]) -> String {
        items.map { ($0.done ? "[x] " : "[ ] ") + ($0.text ?? "") }.joined(separator: "\n")
    }

    /// The items a checklist text holds: each line's text and tick (a line
    /// without a box is an item not ticked; blank lines are none).
    public static func checklistItems(_ text: String) -> [(text: String, done: Bool)] {
        text.split(separator: "\n").compactMap { line in
            var rest = Substring(line.drop { $0 == " " })
            var done = false
            if rest.hasPrefix("[x]") || rest.hasPrefix("[X]") {
                (done, rest) = (true, rest.dropFirst(3))
            } else if rest.hasPrefix("[ ]") || rest.hasPrefix("[]") {
                rest = rest.dropFirst(rest.hasPrefix("[]") ? 2 : 3)
            }
            let text = rest.trimmingPrefix(" ")
            return text.contains(where: { !$0.isWhitespace }) ? (String(text), done) : nil
        }
    }

    /// The focused field's text.
    public var text: String {
        get {
            switch focus {
            case .title: return title
            case .body: return body
            case .due: return due
            case .assignees: return assignees
            case .priority: return priority
            case .labels: return labels
            case .checklist: return checklist
            }
        }
        set {
            switch focus {
            case .title: title = newValue
            case .body: body = newValue
            case .due: due = newValue
            case .assignees: assignees = newValue
            case .priority: priority = newValue
            case .labels: labels = newValue
            case .checklist: checklist = newValue
            }
        }
    }

    /// What a key does to the form: nil keeps it open, `.save` asks the
    /// driver to save it, `.close` closes it without saving.
    public enum Outcome: Equatable, Sendable { case save, close }

    public mutating func reduce(_ key: Key) -> Outcome? {
        if confirmingDiscard {
            confirmingDiscard = false
            if key == .character("y") || key == .character("Y") || key == .character("ㅛ") { return .close }
            return nil
        }
        switch key {
        case .escape:
            if changed {
                confirmingDiscard = true
                return nil
            }
            return .close
        case .control("s"): return .save
        case .enter:
            if focus == .body || focus == .checklist {
                insert("\n")
                return nil
            }
            return .save
        case .tab,
            .down where !focus.isMultiline:
            focusField(1)
        case .backTab,
            .up where !focus.isMultiline:
            focusField(-1)
        case .down: focusField(1)
        case .up: focusField(-1)
        case .left: caret = max(0, caret - 1)
        case .right: caret = min(text.count, caret + 1)
        case .home: caret = 0
        case .end: caret = text.count
        case .backspace:
            guard caret > 0 else { return nil }
            var characters = Array(text)
            characters.remove(at: caret - 1)
            text = String(characters)
            caret -= 1
        case .delete:
            var characters = Array(text)
            guard caret < characters.count else { return nil }
            characters.remove(at: caret)
            text = String(characters)
        case .character(let character): insert(String(character))
        case .paste(let pasted):
            insert(
                focus.isMultiline
                    ? pasted
                    : String(String.UnicodeScalarView(pasted.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : $0 })))
        default: break
        }
        return nil
    }

    private mutating func focusField(_ step: Int) {
        // (The body and the checklist take arrows as moves within them.)
        let fields = Field.allCases
        focus = fields[(focus.rawValue + step + fields.count) % fields.count]
        caret = text.count
    }

    private mutating func insert(_ piece: String) {
        var characters = Array(text)
        characters.insert(contentsOf: Array(piece), at: min(caret, characters.count))
        text = String(characters)
        caret += piece.count
    }
}

extension TaskForm.Field {
    /// The body and the checklist hold several lines.
    public var isMultiline: Bool { self == .body || self == .checklist }
}
