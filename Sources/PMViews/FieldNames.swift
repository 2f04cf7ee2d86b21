import PMCore
import PMICU
import PMLocalization

/// A task field's name and values as a person reads them (sync's conflicts).
package enum FieldNames {
    package static func label(_ field: String, _ localizer: Localizer) -> String {
        switch field {
        case "title": return localizer.string(.showTitle)
        case "body": return localizer.string(.showBody)
        case "due": return localizer.string(.showDue)
        case "state": return localizer.string(.showState)
        case "priority": return localizer.string(.showPriority)
        case "recur": return localizer.string(.showRecur)
        case "dueTime": return localizer.string(.showDueTime)
        default:
            if case .item? = CardField(field) { return localizer.string(.showChecklistItem) }
            return TextSafety.escaped(field)
        }
    }

    package static func value(_ value: JSONValue, of field: String, localizer: Localizer, style: TextStyle) -> String {
        switch (field, value) {
        case ("state", .string(let name)):
            return TaskState(rawValue: name).map { localizer.string(StateNames.key($0)) } ?? TextSafety.escaped(name)
        case ("due", .null): return localizer.string(.showNoDue)
        case ("due", .string(let iso)): return CivilDate(iso: iso).map(style.date) ?? TextSafety.escaped(iso)
        case ("priority", .null): return PriorityNames.name(nil, localizer: localizer)
        case ("recur", .null): return localizer.string(.showRecurNone)
        case ("dueTime", .null): return localizer.string(.showNoDueTime)
        case ("dueTime", .object):
            // The time where it was set, and that zone (a conflict's values, not a reader's time).
            guard let time = DueTime(value: value) else { return "…" }
            return time.time + " " + TextSafety.escaped(time.zone)
        case ("recur", .object):
            guard let series = Series(value: value) else { return "…" }
            return RecurrenceNames(localizer: localizer, style: style).describe(series)
        case ("priority", .string(let name)) where Priority(rawValue: name) != nil:
            return PriorityNames.name(Priority(rawValue: name), localizer: localizer)
        case (_, .string(let text)): return localizer.quoted(TextSafety.escaped(text))
        case (_, .null): return "-"
        case (_, .bool(let flag)): return flag ? "true" : "false"
        case (_, .number(let literal)): return literal
        default: return "…"
        }
    }
}
