import PMText

/// A CSV file with a header row (RFC 4180: commas, or the semicolons or
/// tabs a spreadsheet set to French writes; `"` quotes; any line ending; a
/// UTF-8 byte-order mark allowed).
///
/// The header names pm's columns in any shipped language or in English
/// (`title` or `Titre` or `제목`, `state`, `due`, `assignees`, `body`, `id`,
/// `labels`, `priority`); only a title column is required. Other columns go
/// in the body as `Name: value`. A state is a column's name in any language
/// (empty: TODO); a due date is any form `--due` takes; labels are separated
/// by commas, as assignees are; a priority is its key or its word in any
/// language (empty: none). A row's id is its `id` cell, else
/// its title (and how many rows before had that title), so the same file
/// imported twice adds nothing. `pm export csv` writes this format.
public enum CSVImport: BoardImporter {
    public static func read(_ bytes: [UInt8], options: ImportOptions) throws -> ImportReading {
        if let offset = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw ImportFailure(offset: offset, problem: .invalidUTF8)
        }
        let rows = try CSVTable.rows(bytes)
        guard let header = rows.first else { throw ImportFailure(offset: 0, problem: .empty) }
        let columns = try columns(of: header, options: options)
        var reading = ImportReading()
        var seenIDs = Set<String>()
        var titles: [String: Int] = [:]
        for row in rows.dropFirst() where row.cells.contains(where: { !$0.text.trimmingSpaces.isEmpty }) {
            guard reading.cards.count < ImportRules.cardLimit else {
                throw ImportFailure(offset: row.offset, problem: .tooManyCards(ImportRules.cardLimit))
            }
            let fields = try CSVRowFields(row, columns: columns, header: header, options: options)
            var card = fields.card
            if card.title.isEmpty { throw ImportFailure(offset: row.offset, problem: .emptyTitle) }
            if fields.id.isEmpty {
                let count = titles[card.title, default: 0]
                titles[card.title] = count + 1
                card.sourceID = "title:" + card.title + (count == 0 ? "" : "#\(count + 1)")
            } else {
                card.sourceID = fields.id
            }
            guard seenIDs.insert(card.sourceID).inserted else {
                throw ImportFailure(offset: row.offset, problem: .duplicateID(card.sourceID))
            }
            // A row is a series of its own, named by the row.
            card.recur?.series = "csv\u{0}" + card.sourceID
            var parts = [fields.description, fields.extras.joined(separator: "\n")]
            if let whole = fields.whole { parts.insert(options.words.fullTitle + options.words.separator + whole, at: 0) }
            let (body, cut) = ImportRules.body(parts)
            if fields.whole != nil || cut { reading.shortened += 1 }
            card.body = body
            reading.cards.append(card)
        }
        return reading
    }

    /// The header's columns (nil: a column pm has no field for); a column named twice is refused.
    private static func columns(of header: CSVTable.Row, options: ImportOptions) throws -> [CSVColumn?] {
        var columns: [CSVColumn?] = []
        for cell in header.cells {
            let column = options.csvColumn(cell.text.trimmingSpaces)
            if let column, columns.contains(column) {
                throw ImportFailure(offset: cell.offset, problem: .duplicateKey(cell.text))
            }
            columns.append(column)
        }
        guard columns.contains(.title) else { throw ImportFailure(offset: 0, problem: .notA(.csv)) }
        return columns
    }
}

/// One row's cells, each where its column puts it: the card's fields, the
/// description, the other columns as `Name: value` lines, the id.
private struct CSVRowFields {
    var card: ImportedCard
    /// The title as written, when the card's is cut.
    var whole: String?
    var description = ""
    var extras: [String] = []
    var id = ""

    init(_ row: CSVTable.Row, columns: [CSVColumn?], header: CSVTable.Row, options: ImportOptions) throws {
        card = ImportedCard(sourceID: "", title: "", offset: row.offset)
        for (index, cell) in row.cells.enumerated() {
            let text = CSVTable.unprotected(cell.text)
            guard index < columns.count else {
                if !text.trimmingSpaces.isEmpty { throw ImportFailure(offset: cell.offset, problem: .syntax) }
                continue
            }
            try take(text, at: cell.offset, column: columns[index], named: header.cells[index].text, options: options)
        }
    }

    /// One cell's text, into the field its column names.
    private mutating func take(
        _ text: String, at offset: Int, column: CSVColumn?, named columnName: String, options: ImportOptions
    ) throws {
        switch column {
        case .title?: (card.title, whole) = try ImportRules.title(text, at: offset)
        case .body?: description = try ImportRules.bodyText(text, at: offset)
        case .id?: id = text.trimmingSpaces
        case .state?:
            let name = text.trimmingSpaces
            guard name.isEmpty || options.stateNamed(name) != nil else {
                throw ImportFailure(offset: offset, problem: .badState(name))
            }
            card.state = name.isEmpty ? .todo : options.stateNamed(name) ?? .todo
        case .due?:
            let typed = text.trimmingSpaces
            guard !typed.isEmpty else { return }
            let deadline = options.parseDeadline.map { $0(typed) } ?? options.parseDate(typed).map { ($0, nil) }
            guard let deadline else { throw ImportFailure(offset: offset, problem: .badDate(typed)) }
            (card.due, card.dueTime) = (deadline.date, deadline.time)
        case .assignees?:
            let (kept, other) = ImportRules.names(text.split(separator: ",").map(String.init))
            guard other.allSatisfy({ $0.trimmingSpaces.isEmpty }) else {
                throw ImportFailure(offset: offset, problem: .field(columnName))
            }
            card.assignees = kept
        case .labels?:
            for name in text.split(separator: ",") where !String(name).trimmingSpaces.isEmpty {
                guard let label = try? Labels.validName(String(name)) else {
                    throw ImportFailure(offset: offset, problem: .field(columnName))
                }
                if !card.parts.labels.contains(label) { card.parts.labels.append(label) }
            }
            if card.parts.labels.count > Labels.taskLimit { throw ImportFailure(offset: offset, problem: .field(columnName)) }
        case .priority?:
            let name = text.trimmingSpaces
            guard !name.isEmpty else { return }
            guard let priority = options.priorityNamed(name) else {
                throw ImportFailure(offset: offset, problem: .badPriority(name))
            }
            card.priority = priority
        case .repeats?:
            let typed = text.trimmingSpaces
            guard !typed.isEmpty else { return }
            guard let (rule, until) = options.ruleNamed(typed) else {
                throw ImportFailure(offset: offset, problem: .field(columnName))
            }
            card.recur = ImportedRecurrence(rule: rule, until: until, series: "")
        case nil:
            let value = try ImportRules.bodyText(text, at: offset).trimmingSpaces
            if !value.isEmpty { extras.append(columnName.trimmingSpaces + options.words.separator + value) }
        }
    }
}

/// RFC 4180 rows, each cell with where it starts.
enum CSVTable {
    struct Cell {
        var text: String
        var offset: Int
    }

    struct Row {
        var cells: [Cell]
        var offset: Int
    }

    /// The rows of `bytes` (valid UTF-8). The separator is the header's:
    /// a comma, else a semicolon or a tab when the first line has one and no comma.
    static func rows(_ bytes: [UInt8]) throws -> [Row] {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let separator = separator(ofFirstLine: bytes[start...].prefix { $0 != 0x0A })
        var table = PartialTable(start: start)
        var index = start
        var quoted = false
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        table.field.append(byte)
                        index += 2
                        continue
                    }
                    quoted = false
                    index += 1
                    // After a closing quote: a separator, a line end or the end.
                    if index < bytes.count, ![separator, 0x0A, 0x0D].contains(bytes[index]) {
                        throw ImportFailure(offset: index, problem: .syntax)
                    }
                    continue
                }
                table.field.append(byte)
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where table.field.isEmpty:
                quoted = true
            case separator:
                try table.endField()
                table.fieldStart = index + 1
            case 0x0D, 0x0A:
                try table.endRow()
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                table.fieldStart = index + 1
                table.rowStart = index + 1
            default:
                table.field.append(byte)
            }
            index += 1
        }
        if quoted { throw ImportFailure(offset: table.fieldStart, problem: .truncated) }
        if !table.field.isEmpty || !table.cells.isEmpty { try table.endRow() }
        return table.rows
    }

    /// The separator a header's first line uses: a comma, else a semicolon
    /// or a tab when it has one and no comma.
    private static func separator(ofFirstLine line: ArraySlice<UInt8>) -> UInt8 {
        if line.contains(UInt8(ascii: ",")) { return UInt8(ascii: ",") }
        if line.contains(UInt8(ascii: ";")) { return UInt8(ascii: ";") }
        return line.contains(0x09) ? 0x09 : UInt8(ascii: ",")
    }

    /// The rows read so far, and the row and the field being read.
    private struct PartialTable {
        var rows: [Row] = []
        var cells: [Cell] = []
        var field: [UInt8] = []
        var fieldStart: Int
        var rowStart: Int
        /// How many more cells the file may have.
        var budget = ImportRules.valueLimit

        init(start: Int) {
            fieldStart = start
            rowStart = start
        }

        /// Ends the field being read: a cell of the row.
        mutating func endField() throws {
            budget -= 1
            guard budget >= 0 else { throw ImportFailure(offset: fieldStart, problem: .tooManyValues(ImportRules.valueLimit)) }
            cells.append(Cell(text: String(decoding: field, as: UTF8.self), offset: fieldStart))
            field.removeAll(keepingCapacity: true)
        }

        /// Ends the row being read, after its last field.
        mutating func endRow() throws {
            try endField()
            rows.append(Row(cells: cells, offset: rowStart))
            cells.removeAll()
        }
    }

    /// A cell as written before `pm export csv` guarded it against formulas:
    /// one leading `'` dropped when what follows starts with `= + - @` or `'`.
    static func unprotected(_ text: String) -> String {
        guard text.hasPrefix("'"), let next = text.dropFirst().first, "=+-@'\t\r".contains(next) else { return text }
        return String(text.dropFirst())
    }

    /// A cell a spreadsheet will not run as a formula (`=`, `+`, `-`, `@`
    /// first: a teammate's title must not be code on a reader's machine).
    static func protected(_ text: String) -> String {
        guard let first = text.first, "=+-@\t\r".contains(first) || (first == "'" && text != unprotected(text)) else {
            return text
        }
        return "'" + text
    }
}

extension String {
    /// Without spaces, tabs and line breaks at either end.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
