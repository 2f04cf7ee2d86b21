import PMCore
import PMICU
import PMKit
import PMLocalization

/// The history sentences of a card's labels, priority, checklist and
/// comments: one for each label and each item a change touched, and one
/// for a reordering, however many places it wrote.
struct CardSentences {
    private var saidMoved = false

    mutating func sentence(of field: CardField, _ change: FieldChange, in event: HistoryEvent, view: HistoryView) -> String? {
        let title = MessageArgument.text(TextSafety.escaped(event.title))
        let quoted = { (value: JSONValue) -> MessageArgument in
            if case .string(let text) = value { return .text(TextSafety.escaped(text)) }
            return .text("")
        }
        let context = MessageArgument.text(TextSafety.escaped(change.context ?? ""))
        // A deadline's time is said in the line of its day (every change of a deadline writes both).
        if field == .dueTime, event.changes.contains(where: { $0.field == "due" }) { return nil }
        // The same value on both sides of the usual rule: a conflict resolved.
        if change.from == change.to, field.rule == .usual { return view.sentence(of: change, in: event) }
        switch field {
        case .assignee: return nil
        case .label(let name):
            return view.say(
                change.to == .bool(true) ? .historyLabeled : .historyUnlabeled, title, .text(TextSafety.escaped(name)))
        case .priority:
            var priority: Priority?
            if case .string(let name) = change.to { priority = Priority(rawValue: name) }
            return view.say(.historyPriority, title, .text(PriorityNames.name(priority, localizer: view.localizer)))
        case .item(_, .text):
            switch (change.from, change.to) {
            case (.null, .string): return view.say(.historyItemAdded, title, quoted(change.to))
            case (.string, .string): return view.say(.historyItemRenamed, title, quoted(change.from), quoted(change.to))
            default: return nil
            }
        case .item(_, .done):
            return view.say(change.to == .bool(true) ? .historyItemTicked : .historyItemUnticked, title, context)
        case .item(_, .removed):
            return view.say(change.to == .bool(true) ? .historyItemRemoved : .historyItemAdded, title, context)
        case .item(let id, .position):
            // An item added says so once; a reordering is said once.
            let added = event.changes.contains { $0.field == CardField.item(id, .text).name && $0.from == .null }
            guard !added, !saidMoved else { return nil }
            saidMoved = true
            return view.say(.historyItemMoved, title, context)
        case .dueTime: return Self.timeAlone(change, title: title, view: view)
        case .recur:
            guard let series = Series(value: change.to) else { return view.say(.historyRecurStopped, title) }
            let rule = RecurrenceNames(localizer: view.localizer, style: view.style).describe(series)
            return view.say(.historyRecurSet, title, .text(rule))
        case .comment:
            switch (change.from, change.to) {
            case (.null, _): return view.say(.historyCommented, title)
            // Put back after an undo took it: said as written, not as rewritten.
            case (.object(let was), .object(let now)) where was["text"] == .null && now["text"] != .null && was["edited"] == nil:
                return view.say(.historyCommented, title)
            case (_, .null): return view.say(.historyCommentWithdrawn, title)
            case (_, .object(let members)) where members["text"] == .null:
                return view.say(.historyCommentWithdrawn, title)
            default: return view.say(.historyCommentEdited, title)
            }
        }
    }

    /// A deadline's time changed while its day did not (or the line of the
    /// day would have said both).
    private static func timeAlone(_ change: FieldChange, title: MessageArgument, view: HistoryView) -> String? {
        let (from, to) = (DueTime(value: change.from), DueTime(value: change.to))
        // A change of zone names both zones: 15:00 in UTC → 15:00 in Seoul is a change.
        let naming = from != nil && to != nil && from?.zone != to?.zone
        let said = { (time: DueTime) in
            MessageArgument.text(view.style.timeOfDay(time, localizer: view.localizer, naming: naming))
        }
        switch (from, to) {
        case (nil, let to?): return view.say(.historyDueTimeSet, title, said(to))
        case (let from?, nil): return view.say(.historyDueTimeRemoved, title, said(from))
        case (let from?, let to?): return view.say(.historyDueTimeChanged, title, said(from), said(to))
        case (nil, nil): return nil
        }
    }

}
