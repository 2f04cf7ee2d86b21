import PMBoardUI
import PMCore
import PMICU
import PMLocalization

/// Renders `pm list`: three columns side by side, fitted to the width in
/// terminal cells, or stacked when the terminal is too narrow.
struct BoardView {
    /// Below this width per column, columns are stacked.
    static let minimumColumnWidth = 20
    static let gap = "  "

    var localizer: Localizer
    var style: TextStyle
    var width: Int
    var today: CivilDate

    struct Column {
        var state: TaskState
        var tasks: [BoardTask]
    }

    /// The board's lines, as UTF-8, each ended by a newline.
    func render(_ columns: [Column], shortIDs: [TaskID: String], total: Int, overdue: Int) -> [UInt8] {
        let deadlines = DeadlineFormatter(locale: style.formatLocale, localizer: localizer)
        let columnWidth = (width - Self.gap.count * (columns.count - 1)) / max(columns.count, 1)
        // Written as bytes, row by row: joining the columns' cells as
        // Strings cost as much as making them.
        var out: [UInt8] = []
        if columns.count > 1, columnWidth >= Self.minimumColumnWidth {
            let blocks = columns.map { block($0, width: columnWidth, shortIDs: shortIDs, deadlines: deadlines) }
            let height = blocks.map(\.count).max() ?? 0
            // Up to three bytes a cell (Hangul, the rule's "─"); room never written is never touched.
            out.reserveCapacity(height * (3 * width + 8))
            let blank = UInt8(ascii: " ")
            for row in 0..<height {
                // Padding only up to the last column with something on this row: no trailing blanks.
                if let lastFilled = blocks.lastIndex(where: { row < $0.count && !$0[row].text.isEmpty }) {
                    for index in 0...lastFilled {
                        let cell = row < blocks[index].count ? blocks[index][row] : Cell(text: "", width: 0)
                        out.append(contentsOf: cell.text.utf8)
                        if index < lastFilled {
                            out.append(contentsOf: repeatElement(blank, count: max(0, columnWidth - cell.width) + Self.gap.count))
                        }
                    }
                }
                out.append(0x0A)
            }
        } else {
            let fullWidth = max(width, 10)
            for (index, column) in columns.enumerated() {
                if index > 0 { out.append(0x0A) }
                for cell in block(column, width: fullWidth, shortIDs: shortIDs, deadlines: deadlines) {
                    out.append(contentsOf: cell.text.utf8)
                    out.append(0x0A)
                }
            }
        }
        let summary = localizer.plural(.listSummary, count: total)
        var footer = TerminalCells.truncate(summary, toWidth: width)
        if overdue > 0 {
            let late = localizer.plural(.listOverdue, count: overdue)
            let room = width - TerminalCells.width(of: summary) - 3
            if room >= TerminalCells.width(of: late) { footer += " · " + style.red(late) }
        }
        out.append(0x0A)
        out.append(contentsOf: footer.utf8)
        out.append(0x0A)
        return out
    }

    /// A line of a column with its width in cells (colour codes take none).
    struct Cell {
        var text: String
        var width: Int
    }

    private func block(_ column: Column, width: Int, shortIDs: [TaskID: String], deadlines: DeadlineFormatter) -> [Cell] {
        let name = localizer.string(StateNames.key(column.state))
        let header = TerminalCells.truncate(
            localizer.plural(.listHeader, count: column.tasks.count, .text(name)), toWidth: width)
        var cells = [
            Cell(text: style.bold(header), width: TerminalCells.width(of: header)),
            Cell(text: String(repeating: "─", count: width), width: width),
        ]
        if column.tasks.isEmpty {
            let empty = TerminalCells.truncate(localizer.string(.listEmptyColumn), toWidth: width)
            cells.append(Cell(text: style.dim(empty), width: TerminalCells.width(of: empty)))
        }
        // Ids are hex digits and indents spaces: their lengths in bytes are
        // their widths in cells (String.count walks graphemes, per row).
        var indents: [Int: String] = [:]
        for task in column.tasks {
            let id = shortIDs[task.id] ?? task.id.hexPrefix(4)
            let idCells = id.utf8.count
            let title = TerminalCells.fit(TextSafety.escaped(task.title), toWidth: max(1, width - idCells - 1))
            cells.append(Cell(text: style.dim(id) + " " + title.text, width: idCells + 1 + title.width))
            let indentCells = min(idCells + 1, max(0, width - 4))
            let indent = indents[indentCells] ?? String(repeating: " ", count: indentCells)
            indents[indentCells] = indent
            // Sync's marks (DESIGN.md §9): values in conflict, a task kept from a deletion.
            var marks: [String] = []
            if !task.conflicts.isEmpty {
                let fields = task.conflicts.keys.sorted().map { FieldNames.label($0, localizer) }.joined(separator: ", ")
                marks.append(localizer.string(.listConflict, .text(fields)))
            }
            if task.restored { marks.append(localizer.string(.listRestored)) }
            for mark in marks {
                let text = TerminalCells.truncate(mark, toWidth: max(1, width - indentCells))
                cells.append(Cell(text: indent + style.red(text), width: indentCells + TerminalCells.width(of: text)))
            }
            if let due = task.due {
                let overdue = task.isOverdue(today: today)
                // At 80 columns a column has 25 cells: a compact date, and if
                // need be a shallower indent, keep the deadline whole.
                var lead = indent
                var label = deadlines.label(due, overdue: overdue, fitting: width - indentCells, today: today)
                if TerminalCells.width(of: label) > width - indentCells {
                    lead = String(indent.prefix(2))
                    label = deadlines.label(due, overdue: overdue, fitting: width - lead.utf8.count, today: today)
                }
                let text = TerminalCells.fit(label, toWidth: max(1, width - lead.utf8.count))
                cells.append(
                    Cell(text: lead + (overdue ? style.red(text.text) : text.text), width: lead.utf8.count + text.width))
            }
        }
        return cells
    }
}
