import PMCore

/// The add and edit form (the apps' form sheet): title, body (several
/// lines), deadline (typed in any form `--due` accepts) and who does it
/// (names, comma-separated), edited at a caret.
public struct TaskForm: Equatable, Sendable {
    public enum Field: Int, CaseIterable, Sendable { case title, body, due, assignees }

    /// The task edited; nil when adding.
    public var task: TaskID?
    public var title: String
    public var body: String
    public var due: String
    /// Who does it: names as `pm add --to` takes them (`ana, ji-woo`).
    public var assignees: String
    /// What the fields held when the form opened: Esc asks before losing a change.
    public let original: [String]
    public var focus = Field.title
    /// The caret, in characters of the focused field.
    public var caret: Int
    /// Esc was pressed on a changed form: the next key says whether to discard.
    public var confirmingDiscard = false
    /// The task changed on disk while the form was open.
    public var changedUnderneath = false

    public init(task: TaskID? = nil, title: String = "", body: String = "", due: String = "", assignees: String = "") {
        self.task = task
        self.title = title
        self.body = body
        self.due = due
        self.assignees = assignees
        original = [title, body, due, assignees]
        caret = title.count
    }

    public var changed: Bool { [title, body, due, assignees] != original }

    /// The focused field's text.
    public var text: String {
        get {
            switch focus {
            case .title: return title
            case .body: return body
            case .due: return due
            case .assignees: return assignees
            }
        }
        set {
            switch focus {
            case .title: title = newValue
            case .body: body = newValue
            case .due: due = newValue
            case .assignees: assignees = newValue
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
            if focus == .body {
                insert("\n")
                return nil
            }
            return .save
        case .tab,
            .down where focus != .body:
            focusField(1)
        case .backTab,
            .up where focus != .body:
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
                focus == .body
                    ? pasted
                    : String(String.UnicodeScalarView(pasted.unicodeScalars.map { $0 == "\r" || $0 == "\n" ? " " : $0 })))
        default: break
        }
        return nil
    }

    private mutating func focusField(_ step: Int) {
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
