/// What a key does on the board, from one table that the footer and the help
/// screen are generated from too (DESIGN.md §11).
public enum BoardAction: String, CaseIterable, Sendable {
    case selectLeft, selectRight, selectUp, selectDown
    case moveLeft, moveRight, moveMenu
    case add, edit, delete, undo, redo, history, help, quit
    case conflicts
    case column1, column2, column3
    /// Narrow the board to cards holding a text; show only mine (and the
    /// unassigned); assign the card to me.
    case filter, mine, take
}

public enum KeyMap {
    /// The keys of each action, in the order help lists them. Every action
    /// has a key that is not a letter, since a Korean input method turns
    /// letters into jamo (which are also accepted, see ``qwerty(_:)``).
    public static let bindings: [(action: BoardAction, keys: [Key])] = [
        (.selectLeft, [.left, .character("h")]),
        (.selectDown, [.down, .character("j")]),
        (.selectUp, [.up, .character("k")]),
        (.selectRight, [.right, .character("l")]),
        (.moveLeft, [.shiftLeft, .character("H"), .character("<")]),
        (.moveRight, [.shiftRight, .character("L"), .character(">")]),
        (.moveMenu, [.enter, .character("m")]),
        (.add, [.insert, .character("a"), .character("+")]),
        (.edit, [.character("e"), .character("=")]),
        (.delete, [.delete, .character("d")]),
        (.conflicts, [.character("c"), .character("!")]),
        (.undo, [.control("z"), .character("u")]),
        (.redo, [.control("y"), .character("r")]),
        (.history, [.character("t"), .character("#")]),
        (.filter, [.character("/"), .character("f")]),
        (.mine, [.character("@"), .character("M")]),
        (.take, [.character("*"), .character("T")]),
        (.help, [.character("?")]),
        (.quit, [.character("q"), .control("c")]),
        (.column1, [.character("1")]),
        (.column2, [.character("2")]),
        (.column3, [.character("3")]),
    ]

    /// The action of a key on the board (nil: none). Jamo from a Korean
    /// 2-set keyboard count as the QWERTY key they sit on, and the digits of
    /// a French AZERTY keyboard's top row (`&é"`) as 1–3.
    public static func action(for key: Key) -> BoardAction? {
        var key = key
        if case .character(let character) = key {
            if let letter = qwerty(character) { key = .character(letter) }
            if let digit = azertyDigit(character) { key = .character(digit) }
        }
        return bindings.first { $0.keys.contains(key) }?.action
    }

    /// The QWERTY letter under a Hangul jamo on the standard 2-set layout
    /// (shifted jamo give capitals where the layout has them).
    public static func qwerty(_ jamo: Character) -> Character? { jamoToQWERTY[jamo] }

    private static let jamoToQWERTY: [Character: Character] = {
        let plain = Array("ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔㅁㄴㅇㄹㅎㅗㅓㅏㅣㅋㅌㅊㅍㅠㅜㅡ")
        let letters = Array("qwertyuiopasdfghjklzxcvbnm")
        var map = Dictionary(uniqueKeysWithValues: zip(plain, letters))
        for (jamo, letter) in zip(Array("ㅃㅉㄸㄲㅆㅒㅖ"), Array("QWERTOP")) { map[jamo] = letter }
        return map
    }()

    /// The digit of a key on the top row of a French AZERTY keyboard.
    public static func azertyDigit(_ character: Character) -> Character? {
        guard let position = Array(azertyRow).firstIndex(of: character) else { return nil }
        return Array("1234567890")[position]
    }

    /// The key of a French AZERTY keyboard's top row that types `digit` unshifted (`1`: `&`).
    public static func azertyKey(of digit: Character) -> Character? {
        guard let position = Array("1234567890").firstIndex(of: digit) else { return nil }
        return Array(azertyRow)[position]
    }

    private static let azertyRow = "&é\"'(-è_çà"
}
