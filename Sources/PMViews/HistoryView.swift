import PMCore
import PMICU
import PMKit
import PMLocalization

/// Renders history events in the reader's language, at read time.
package struct HistoryView {
    package var localizer: Localizer
    package var style: TextStyle
    /// Says each change as a phrase that an undo or redo line names
    /// (`history.clause.*`: "'세미나' 추가를 되돌렸습니다", « l’ajout de … »),
    /// never as a sentence that reads as a new action (issue 44, item 27).
    package var asTakenBack = false
    /// Who reads these lines (`PM_USER`), when one person does: their own
    /// name in a list of people is said without Korean's honorific 님 (a
    /// colleague who assigned them: `'X'을 지수에게 맡겼습니다`, never
    /// `지수 님에게` read by 지수). Nil for a page many people read.
    package var reader: String? = nil

    package init(localizer: Localizer, style: TextStyle, asTakenBack: Bool = false, reader: String? = nil) {
        self.localizer = localizer
        self.style = style
        self.asTakenBack = asTakenBack
        self.reader = reader
    }

    /// The phrase of `event` for a line that names it as taken back or done again.
    package func clause(_ event: HistoryEvent) -> String {
        var view = self
        view.asTakenBack = true
        return view.sentence(event)
    }

    /// The text of `key`, or of its phrase when this view says changes as taken back.
    func say(_ key: L10nKey, _ arguments: MessageArgument...) -> String {
        say(key, arguments: arguments)
    }

    private func say(_ key: L10nKey, arguments: [MessageArgument]) -> String {
        guard asTakenBack else { return localizer.string(key, arguments: arguments) }
        let phrases: [L10nKey: L10nKey] = [
            .historyAdded: .historyClauseAdded, .historyRemoved: .historyClauseRemoved,
            .historyMoved: .historyClauseMoved, .historyResolved: .historyClauseResolved,
            .messageEdited: .historyClauseEdited, .historyRenamed: .historyClauseRenamed,
            .historyDueSet: .historyClauseDueSet, .historyDueRemoved: .historyClauseDueRemoved,
            .historyDueChanged: .historyClauseDueChanged, .historyBodyChanged: .historyClauseBodyChanged,
            .historyAssigned: .historyClauseAssigned, .historyTook: .historyClauseTook,
            .historyTookWith: .historyClauseTookWith, .historyUnassigned: .historyClauseUnassigned,
            .historySteppedBack: .historyClauseSteppedBack, .historyLabeled: .historyClauseLabeled,
            .historyUnlabeled: .historyClauseUnlabeled, .historyPriority: .historyClausePriority,
            .historyItemAdded: .historyClauseItemAdded, .historyItemTicked: .historyClauseItemTicked,
            .historyItemUnticked: .historyClauseItemUnticked, .historyItemRenamed: .historyClauseItemRenamed,
            .historyItemMoved: .historyClauseItemMoved, .historyItemRemoved: .historyClauseItemRemoved,
            .historyCommented: .historyClauseCommented, .historyCommentEdited: .historyClauseCommentEdited,
            .historyCommentWithdrawn: .historyClauseCommentWithdrawn, .historyViewSaved: .historyClauseViewSaved,
            .historyViewChanged: .historyClauseViewChanged, .historyViewDeleted: .historyClauseViewDeleted,
            .historyRecurSet: .historyClauseRecurSet, .historyRecurStopped: .historyClauseRecurStopped,
            .historyDueTimeSet: .historyClauseDueTimeSet, .historyDueTimeChanged: .historyClauseDueTimeChanged,
            .historyDueTimeRemoved: .historyClauseDueTimeRemoved,
        ]
        return localizer.string(phrases[key] ?? key, arguments: arguments)
    }

    /// Sentences follow one another; phrases are listed.
    private func joined(_ parts: [String]) -> String {
        parts.joined(separator: asTakenBack ? ", " : " ")
    }

    package func lines(_ events: [HistoryEvent]) -> [String] {
        events.map { event in
            localizer.string(
                .historyLine, .text(style.dim(style.dateTime(event.at))), .text(who(event)), .text(described(event)))
        }
    }

    /// What a change did, an undo or redo saying so: "Undid: moved 'X'
    /// from DOING to TODO." (history, news and the exported page alike).
    package func described(_ event: HistoryEvent) -> String {
        if event.undoes != nil { return localizer.string(.historyUndid, .text(localizer.afterColon(clause(event)))) }
        if event.redoes != nil { return localizer.string(.historyRedid, .text(localizer.afterColon(clause(event)))) }
        return sentence(event)
    }

    /// Who made a change, as the reader sees it: the name it gives, and the
    /// person of the copy it came from when that is someone else.
    package func who(_ event: HistoryEvent) -> String {
        let name = TextSafety.escaped(event.by)
        guard let other = event.copyOf else { return name }
        return localizer.string(.historyFromCopy, .text(name), .text(TextSafety.escaped(other)))
    }

    /// What happened, as a sentence: `Moved 'X' from TODO to DOING.` An
    /// undo is said as the change it took back, as that change was made
    /// (`Undid: removed 'X' from TODO.` after a deletion was undone), never
    /// as its compensating event, which reads as the opposite.
    package func sentence(_ event: HistoryEvent) -> String {
        let event = event.undoes == nil ? event : Self.takenBack(event)
        let l = localizer
        let title = MessageArgument.text(TextSafety.escaped(event.title))
        func column(_ state: TaskState?) -> MessageArgument { .text(l.string(StateNames.key(state ?? .todo))) }
        switch event.action {
        case .added: return say(.historyAdded, title)
        case .removed: return say(.historyRemoved, title, column(event.from))
        case .moved where event.from == event.to:
            return joined([say(.historyResolved, title, .text(FieldNames.label("state", l).lowercased()))] + changes(event))
        case .moved:
            return joined([say(.historyMoved, title, column(event.from), column(event.to))] + changes(event))
        case .edited:
            let sentences = changes(event)
            return sentences.isEmpty ? say(.messageEdited, title) : joined(sentences)
        case .view:
            let change = event.changes.first { $0.field == "filter" }
            switch (change?.from ?? .null, change?.to ?? .null) {
            case (_, .null): return say(.historyViewDeleted, title)
            case (.null, _): return say(.historyViewSaved, title)
            default: return say(.historyViewChanged, title)
            }
        }
    }

    /// The change an undo took back, rebuilt from the undo's own entry:
    /// the opposite action, the columns and values the other way round.
    package static func takenBack(_ undo: HistoryEvent) -> HistoryEvent {
        var made = undo
        switch undo.action {
        case .added: (made.action, made.from, made.to) = (.removed, undo.to ?? undo.from, nil)
        case .removed: (made.action, made.from, made.to) = (.added, nil, undo.from ?? undo.to)
        case .moved: (made.from, made.to) = (undo.to, undo.from)
        case .edited, .view: break
        }
        made.changes = undo.changes.map { FieldChange(field: $0.field, from: $0.to, to: $0.from, context: $0.context) }
        return made
    }

    private func changes(_ event: HistoryEvent) -> [String] {
        let l = localizer
        // Names assigned (or taken off) in one change make one sentence.
        var assigned: [String] = []
        var unassigned: [String] = []
        var cardSentences = CardSentences()
        var sentences: [String] = event.changes.compactMap { change in
            if let field = CardField(change.field), Assignees.name(ofField: change.field) == nil {
                return cardSentences.sentence(of: field, change, in: event, view: self)
            }
            // (A name assigned again, already shown, is assigned all the same.)
            if let name = Assignees.name(ofField: change.field), change.from != change.to || change.to == .bool(true) {
                if change.to == .bool(true) {
                    assigned.append(TextSafety.escaped(name))
                } else {
                    unassigned.append(TextSafety.escaped(name))
                }
                return nil
            }
            return sentence(of: change, in: event)
        }
        let title = MessageArgument.text(TextSafety.escaped(event.title))
        // A person who takes a task, or steps back from it: the line already
        // names them, and Korean never honours oneself (지수 님에게).
        let byThemselves = TextSafety.escaped(event.by)
        let people = { (names: [String]) in
            MessageArgument.text(
                l.list(
                    names.sorted().map { $0 == reader.map { TextSafety.escaped($0) } ? $0 : l.string(.historyPerson, .text($0)) }
                ))
        }
        if assigned == [byThemselves] {
            sentences.append(say(.historyTook, title))
        } else if assigned.contains(byThemselves) {
            sentences.append(say(.historyTookWith, title, people(assigned.filter { $0 != byThemselves })))
        } else if !assigned.isEmpty {
            sentences.append(say(.historyAssigned, title, people(assigned)))
        }
        if unassigned.contains(byThemselves) { sentences.append(say(.historySteppedBack, title)) }
        let others = unassigned.filter { $0 != byThemselves }
        if !others.isEmpty { sentences.append(say(.historyUnassigned, title, people(others))) }
        return sentences
    }

    func sentence(of change: FieldChange, in event: HistoryEvent) -> String {
        let l = localizer
        // A deadline's time of day, changed in the same event as its day.
        let time = change.field == "due" ? event.changes.first { $0.field == CardField.dueTime.name } : nil
        // The same value on both sides: someone picked it over a conflict's other values.
        if change.from == change.to, time.map({ $0.from == $0.to }) ?? true {
            return say(
                .historyResolved, .text(TextSafety.escaped(event.title)),
                .text(FieldNames.label(change.field, l).lowercased()))
        }
        switch change.field {
        case "title":
            return say(.historyRenamed, .text(text(change.from)), .text(text(change.to)))
        case "due":
            let title = MessageArgument.text(TextSafety.escaped(event.title))
            let (from, to) = (date(change.from, time: time?.from), date(change.to, time: time?.to))
            switch (change.from, change.to) {
            case (.null, _): return say(.historyDueSet, title, .text(to))
            case (_, .null): return say(.historyDueRemoved, title, .text(from))
            default: return say(.historyDueChanged, title, .text(from), .text(to))
            }
        default:
            return say(.historyBodyChanged, .text(TextSafety.escaped(event.title)))
        }
    }

    private func text(_ value: JSONValue) -> String {
        if case .string(let text) = value { return TextSafety.escaped(text) }
        return ""
    }

    private func date(_ value: JSONValue, time: JSONValue? = nil) -> String {
        guard case .string(let text) = value else { return localizer.string(.showNoDue) }
        guard let date = CivilDate(iso: text) else { return TextSafety.escaped(text) }
        return style.deadline(Deadline(date: date, time: time.flatMap { DueTime(value: $0) }), localizer: localizer)
    }
}
