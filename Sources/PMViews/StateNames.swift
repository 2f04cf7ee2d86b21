import PMCore
import PMKit
import PMLocalization

/// Column names: keys for scripts, and each shipped language's name for people.
package enum StateNames {
    package static func key(_ state: TaskState) -> L10nKey {
        switch state {
        case .todo: return .columnTodo
        case .doing: return .columnDoing
        case .done: return .columnDone
        }
    }

    /// A column's name in the reader's language (`TODO`, `À FAIRE`, `할 일`).
    package static func name(_ state: TaskState, localizer: Localizer) -> String {
        localizer.string(key(state))
    }

    /// The state named by `text`: `todo|doing|done`, or a column's name in
    /// the reader's language or any shipped language, as a person types it
    /// (any case, with or without accents and inner spaces: `termine`,
    /// `"en cours"`, `진행중`).
    package static func parse(_ text: String, localizer: Localizer) throws -> TaskState {
        let wanted = LooseText.fold(text)
        if let state = TaskState(rawValue: wanted) { return state }
        for candidate in [localizer] + LooseText.shippedLocalizers {
            for state in TaskState.allCases where LooseText.fold(candidate.string(key(state))) == wanted {
                return state
            }
        }
        throw PMError.unknownState(text)
    }
}

extension LooseText {
    /// One localizer per shipped language, for words typed in any of them.
    package static let shippedLocalizers: [Localizer] = TableSource.shippedLanguages.map { Localizer(chain: LanguageChain([$0])) }
}
