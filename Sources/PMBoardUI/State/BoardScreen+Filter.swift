import PMCore

/// The board's filter (DESIGN.md §13): what `/` types and `@` toggles; the
/// driver shows the cards it lets through.
extension BoardScreen {
    /// What the board shows (DESIGN.md §13): cards whose title or body holds
    /// `text` (as `--grep` matches), and only the reader's own and the
    /// unassigned ones when `mine` is on. The driver applies it.
    public struct Filter: Equatable, Sendable {
        public var text = ""
        public var mine = false
        public init(text: String = "", mine: Bool = false) {
            self.text = text
            self.mine = mine
        }
        public var isActive: Bool { !text.isEmpty || mine }
    }

    /// Why a key did nothing: said in the status line (a dimmed key says why when pressed).
    public enum Notice: Equatable, Sendable {
        case nothingSelected, nothingToUndo, nothingToRedo, undoBlocked, noColumnThatWay, noConflict
    }

    /// Typing the filter: each character as typed (a Korean input method
    /// sends whole syllables; letters are never read as keys here), Backspace
    /// takes one back, Enter keeps the filter, Esc clears it.
    mutating func reduceFilter(_ key: Key) -> [Effect] {
        switch key {
        case .character(let character) where !character.isNewline:
            filter.text.append(character)
        case .paste(let text):
            filter.text += text.filter { !$0.isNewline && $0 != "\t" }
        case .backspace:
            guard !filter.text.isEmpty else { return [] }
            filter.text.removeLast()
        case .enter, .tab:
            mode = .board
            return []
        case .escape:
            mode = .board
            guard !filter.text.isEmpty else { return [] }
            filter.text = ""
        case .up, .down, .left, .right:
            mode = .board
            return reduceBoard(key)
        default:
            return []
        }
        return [.filter(filter)]
    }
}
