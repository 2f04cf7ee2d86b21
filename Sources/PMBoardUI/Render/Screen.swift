import PMICU

/// One cell of the screen: a grapheme (empty for the second half of a wide
/// one) and how it looks.
public struct ScreenCell: Equatable, Sendable {
    public struct Look: OptionSet, Equatable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Look(rawValue: 1)
        public static let dim = Look(rawValue: 2)
        public static let reverse = Look(rawValue: 4)
        public static let red = Look(rawValue: 8)
    }

    public var text: String
    public var look: Look

    public static let blank = ScreenCell(text: " ", look: [])
}

/// A whole screen: rows of cells, and where the real cursor goes (a form's
/// caret; nil hides it).
public struct Screen: Equatable, Sendable {
    public let width: Int
    public let height: Int
    public private(set) var rows: [[ScreenCell]]
    public var cursor: (x: Int, y: Int)?

    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        rows = Array(repeating: Array(repeating: .blank, count: self.width), count: self.height)
    }

    public static func == (a: Screen, b: Screen) -> Bool {
        a.rows == b.rows && a.cursor?.x == b.cursor?.x && a.cursor?.y == b.cursor?.y
    }

    /// Writes `text` from column `x` of row `y`, clipped at the edge (a wide
    /// character that would not fit whole is left out). Returns where it ended.
    @discardableResult
    public mutating func write(_ text: String, x: Int, y: Int, look: ScreenCell.Look = [], limit: Int? = nil) -> Int {
        guard rows.indices.contains(y) else { return x }
        let end = min(width, limit.map { x + $0 } ?? width)
        var column = x
        // A wide character of what lies beneath, half covered at the left
        // edge, becomes a space: left whole, it would push the rest of the
        // row one cell to the right (a dialog over a Korean board).
        if x > 0, x < width, rows[y][x].text.isEmpty {
            rows[y][x - 1] = ScreenCell(text: " ", look: rows[y][x - 1].look)
        }
        defer {
            // And at the right edge: a wide character whose first half was
            // covered leaves its second half as a space.
            if column >= 0, column < width, column > x, rows[y][column].text.isEmpty {
                rows[y][column] = ScreenCell(text: " ", look: rows[y][column].look)
            }
        }
        for character in text {
            let cells = TerminalCells.width(of: character)
            if cells == 0 { continue }
            guard column + cells <= end else { break }
            if column >= 0 {
                rows[y][column] = ScreenCell(text: String(character), look: look)
                if cells == 2 { rows[y][column + 1] = ScreenCell(text: "", look: look) }
            }
            column += cells
        }
        return column
    }

    /// Gives `look` to cells `x..<x+count` of row `y`.
    public mutating func paint(x: Int, y: Int, count: Int, look: ScreenCell.Look) {
        guard rows.indices.contains(y) else { return }
        for column in max(0, x)..<min(width, x + count) { rows[y][column].look.formUnion(look) }
    }

    /// What to send the terminal to turn `previous` into this screen: only
    /// the rows that changed (all of them when the size changed or there is none).
    /// - Parameter color: false under `NO_COLOR`: bold, dim and reverse
    ///   stay (they are not colours), red goes (overdue is also said in words).
    public func update(from previous: Screen?, color: Bool = true) -> String {
        var out = ""
        for (y, row) in rows.enumerated() {
            if let previous, previous.width == width, previous.height == height, previous.rows[y] == row { continue }
            out += "\u{1B}[\(y + 1);1H" + Self.ansi(row, color: color)
        }
        return out
    }

    static func ansi(_ row: [ScreenCell], color: Bool) -> String {
        var out = ""
        var look: ScreenCell.Look = []
        for cell in row {
            if cell.look != look {
                out += "\u{1B}[0m"
                if cell.look.contains(.bold) { out += "\u{1B}[1m" }
                if cell.look.contains(.dim) { out += "\u{1B}[2m" }
                if cell.look.contains(.reverse) { out += "\u{1B}[7m" }
                if color, cell.look.contains(.red) { out += "\u{1B}[31m" }
                look = cell.look
            }
            out += cell.text
        }
        return out + "\u{1B}[0m"
    }

    /// The screen as plain text, trailing blanks trimmed (golden files).
    public var plainText: String {
        rows.map { row in
            var line = row.map(\.text).joined()
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
