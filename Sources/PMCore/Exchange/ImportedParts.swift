import PMICU

/// What an importer reads into a card's own fields beside its title and
/// body (DESIGN.md §17): labels, a checklist and comments, each as pm keeps
/// it, with ids derived from the source so that importing again adds
/// nothing, and the same ids on every teammate's copy.
public struct ImportedParts: Equatable, Sendable {
    /// Label names as pm keeps them, each once, in the order read.
    public var labels: [String] = []
    /// The checklist in the source's order (positions are given when added).
    public var checklist: [ChecklistItem] = []
    public var comments: [Comment] = []
    /// Something was cut to pm's limits (a long item or comment, too many of them).
    public var cut = false
    /// Names pm cannot keep (a label's, a comment author's), each once: left out with their label or comment.
    public var refused: [String] = []
    /// Labels and comments left out for their names.
    public var leftOut = 0

    public init() {}

    /// Adds a label, unless pm cannot keep its name (then it is left out and
    /// said); a control, escape or bidi character refuses the file.
    mutating func addLabel(_ raw: String, at offset: Int) throws {
        try Self.refuseUnsafe(raw, at: offset)
        guard let name = try? Labels.validName(raw) else {
            refuse(raw)
            return
        }
        guard !labels.contains(name) else { return }
        guard labels.count < Labels.taskLimit else {
            cut = true
            return
        }
        labels.append(name)
    }

    /// Adds a checklist item from the source's `sourceID`: one line of text
    /// (line breaks as spaces), cut to pm's limit; an item with nothing
    /// visible is left out, as pm would not keep it.
    mutating func addItem(sourceID: String, text raw: String, done: Bool, at offset: Int) throws {
        guard raw.unicodeScalars.contains(where: TaskInput.isVisible) else { return }
        let (text, whole) = try ImportRules.title(raw, at: offset)
        if whole != nil { cut = true }
        let id = ItemID.derived(from: sourceID)
        guard !checklist.contains(where: { $0.id == id }) else { return }
        guard checklist.count < ChecklistItem.cardLimit else {
            cut = true
            return
        }
        checklist.append(ChecklistItem(id: id, text: text, done: done))
    }

    /// Adds a comment from the source's `sourceID`, by `author` at `time`
    /// (as pm stores times), cut to pm's limit; one whose author pm cannot
    /// keep is left out and said, one with nothing visible left out.
    mutating func addComment(sourceID: String, by author: String, at time: String, text raw: String, offset: Int) throws {
        try Self.refuseUnsafe(author, at: offset)
        var text = TaskInput.trimmed(try ImportRules.bodyText(raw, at: offset))
        guard text.unicodeScalars.contains(where: TaskInput.isVisible) else { return }
        guard let by = try? Assignees.validName(author) else {
            refuse(author)
            return
        }
        if text.count > Comment.textLimit {
            text = String(text.prefix(Comment.textLimit - 1)) + "…"
            cut = true
        }
        let id = ItemID.derived(from: sourceID)
        guard !comments.contains(where: { $0.id == id }) else { return }
        comments.append(Comment(id: id, by: by, at: time, text: text))
    }

    /// The comments pm keeps on one card: the newest, when there are more.
    mutating func keepNewestComments() {
        comments.sort(by: Comment.precedes)
        guard comments.count > Comment.cardLimit else { return }
        comments.removeFirst(comments.count - Comment.cardLimit)
        cut = true
    }

    private mutating func refuse(_ name: String) {
        leftOut += 1
        if !refused.contains(name) { refused.append(name) }
    }

    private static func refuseUnsafe(_ text: String, at offset: Int) throws {
        if let scalar = text.unicodeScalars.first(where: TextSafety.isUnsafe) {
            throw ImportFailure(offset: offset, problem: .unsafeCharacter(scalar))
        }
    }
}

extension ImportReading {
    /// Counts what `parts` left out or cut; says whether it cut something.
    mutating func note(_ parts: ImportedParts) -> Bool {
        partsLeftOut += parts.leftOut
        for name in parts.refused where !refusedNames.contains(name) { refusedNames.append(name) }
        return parts.cut
    }
}

extension Board {
    /// Puts an imported card's labels, priority, checklist and comments on `task`.
    static func setImportedParts(of card: ImportedCard, on task: inout BoardTask) {
        let parts = card.parts
        if !parts.labels.isEmpty { task.labels = parts.labels }
        task.priority = card.priority
        if !parts.checklist.isEmpty {
            task.allItems = zip(parts.checklist, Position.spread(parts.checklist.count)).map { item, position in
                var placed = item
                placed.position = position
                return placed
            }
        }
        if !parts.comments.isEmpty { task.allComments = parts.comments }
    }
}
