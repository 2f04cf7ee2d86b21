import PMCore
import PMKit
import PMLocalization

/// Priorities: keys for scripts, and each shipped language's word for people.
package enum PriorityNames {
    package static func key(_ priority: Priority?) -> L10nKey {
        switch priority {
        case nil: return .priorityNone
        case .low: return .priorityLow
        case .normal: return .priorityNormal
        case .high: return .priorityHigh
        case .urgent: return .priorityUrgent
        }
    }

    /// The mark a card shows for it, readable without colour; empty for none.
    package static func mark(_ priority: Priority?, localizer: Localizer) -> String {
        switch priority {
        case nil: return ""
        case .low: return localizer.string(.priorityMarkLow)
        case .normal: return localizer.string(.priorityMarkNormal)
        case .high: return localizer.string(.priorityMarkHigh)
        case .urgent: return localizer.string(.priorityMarkUrgent)
        }
    }

    /// A priority's word in the reader's language.
    package static func name(_ priority: Priority?, localizer: Localizer) -> String {
        localizer.string(key(priority))
    }

    /// Every choice, none first.
    package static let choices: [Priority?] = [nil] + Priority.allCases.map { $0 }

    /// The priority named by `text` (`.some(nil)` for none): its key
    /// (`high`, `none`), or its word in the reader's language or any shipped
    /// language, as a person types it (any case, with or without accents:
    /// `haute`, `Urgente`, `높음`).
    package static func parse(_ text: String, localizer: Localizer) throws -> Priority? {
        let wanted = LooseText.fold(text)
        if wanted == "none" { return nil }
        if let priority = Priority(rawValue: wanted) { return priority }
        for candidate in [localizer] + LooseText.shippedLocalizers {
            for choice in choices where LooseText.fold(candidate.string(key(choice))) == wanted { return choice }
        }
        throw PMError.unknownPriority(text)
    }

    /// The accepted words, for a refusal: `none, low, … (aucune, basse, …)`.
    package static func accepted(_ localizer: Localizer) -> String {
        localizer.list(
            choices.map { choice in
                let key = choice?.rawValue ?? "none"
                let word = name(choice, localizer: localizer)
                return word == key ? key : "\(key) (\(word))"
            })
    }
}
