import FoundationEssentials
import PMBoardUI
import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

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
    /// The instant the list is made at: a deadline with a time is overdue once it has passed.
    var now: Date? = nil

    struct Column {
        var state: TaskState
        var tasks: [BoardTask]
    }

    /// The board's lines, as UTF-8, each ended by a newline.
    func render(_ columns: [Column], shortIDs: ShortIDs, total: Int, overdue: Int) -> [UInt8] {
        let deadlines = DeadlineFormatter(locale: style.formatLocale, localizer: localizer)
        let columnWidth = (width - Self.gap.count * (columns.count - 1)) / max(columns.count, 1)
        // Written as bytes, row by row, from each column's lines as bytes:
        // making and joining a String per line cost as much as the rest.
        var out: [UInt8] = []
        if columns.count > 1, columnWidth >= Self.minimumColumnWidth {
            let blocks = columns.map { block($0, width: columnWidth, shortIDs: shortIDs, deadlines: deadlines) }
            let height = blocks.map(\.count).max() ?? 0
            // Up to three bytes a cell (Hangul, the rule's "─"); room never written is never touched.
            out.reserveCapacity(height * (3 * width + 8))
            let blank = UInt8(ascii: " ")
            for row in 0..<height {
                // Padding only up to the last column with something on this row: no trailing blanks.
                if let lastFilled = blocks.lastIndex(where: { row < $0.count && !$0.isEmpty(row) }) {
                    for index in 0...lastFilled {
                        var cellWidth = 0
                        if row < blocks[index].count {
                            blocks[index].append(row, to: &out)
                            cellWidth = blocks[index].width(row)
                        }
                        if index < lastFilled {
                            out.append(contentsOf: repeatElement(blank, count: max(0, columnWidth - cellWidth) + Self.gap.count))
                        }
                    }
                }
                out.append(0x0A)
            }
        } else {
            let fullWidth = max(width, 10)
            for (index, column) in columns.enumerated() {
                if index > 0 { out.append(0x0A) }
                let lines = block(column, width: fullWidth, shortIDs: shortIDs, deadlines: deadlines)
                for row in 0..<lines.count {
                    lines.append(row, to: &out)
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

    /// A column's lines, as UTF-8 in one buffer, each with its width in
    /// cells (colour codes take none).
    struct Lines {
        private var bytes: [UInt8] = []
        /// Where each line ends in `bytes`, and its width.
        private var ends: [(end: Int, width: Int)] = []

        var count: Int { ends.count }

        private func range(_ row: Int) -> Range<Int> { (row == 0 ? 0 : ends[row - 1].end)..<ends[row].end }
        func isEmpty(_ row: Int) -> Bool { range(row).isEmpty }
        func width(_ row: Int) -> Int { ends[row].width }
        func append(_ row: Int, to out: inout [UInt8]) { out.append(contentsOf: bytes[range(row)]) }

        /// Adds to the line being made.
        mutating func add(_ text: String) { add(text, prefix: .max) }

        /// Adds bytes of UTF-8.
        mutating func add(bytes more: [UInt8]) { bytes += more }

        /// Adds the first `count` UTF-8 bytes of `text`.
        mutating func add(_ text: String, prefix count: Int) {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0.prefix(count))) }
        }
        /// Adds the first `digits` hex digits of `id`.
        mutating func addHexPrefix(of id: TaskID, _ digits: Int) { id.appendHexPrefix(digits, to: &bytes) }

        /// Ends the line being made, `width` cells wide.
        mutating func end(width: Int) { ends.append((bytes.count, width)) }
        /// A whole line.
        mutating func line(_ text: String, width: Int) {
            add(text)
            end(width: width)
        }
    }

    private func block(_ column: Column, width: Int, shortIDs: ShortIDs, deadlines: DeadlineFormatter) -> Lines {
        var lines = Lines()
        let name = localizer.string(StateNames.key(column.state))
        let header = TerminalCells.truncate(
            localizer.plural(.listHeader, count: column.tasks.count, .text(name)), toWidth: width)
        lines.line(style.bold(header), width: TerminalCells.width(of: header))
        lines.line(String(repeating: "─", count: width), width: width)
        if column.tasks.isEmpty {
            let empty = TerminalCells.truncate(localizer.string(.listEmptyColumn), toWidth: width)
            lines.line(style.dim(empty), width: TerminalCells.width(of: empty))
        }
        // Ids are hex digits and indents spaces: their lengths in bytes are
        // their widths in cells (String.count walks graphemes, per row).
        var indents: [Int: String] = [:]
        let dim = style.dimCodes
        var marks: [UInt8] = []
        marks.reserveCapacity(64)
        for task in column.tasks {
            let idCells = shortIDs.digits(of: task.id) ?? TaskLookup.minimumPrefix
            addTitleLine(task, idCells: idCells, width: width, dim: dim, to: &lines)
            let indentCells = min(idCells + 1, max(0, width - 4))
            let indent: String
            if let known = indents[indentCells] {
                indent = known
            } else {
                indent = String(repeating: " ", count: indentCells)
                indents[indentCells] = indent
            }
            // Sync's marks (DESIGN.md §9): values in conflict, a task kept from a deletion.
            let conflictMarks = syncMarks(of: task)
            // The deadline first, then who, then sync's marks: the board's order (one card, one form).
            if let deadline = task.deadline {
                addDeadline(
                    deadline, overdue: task.isOverdue(today: today, now: now), indent: indent, width: width,
                    deadlines: deadlines, to: &lines)
            }
            if !task.assignees.isEmpty {
                let names = TerminalCells.fit(
                    task.assignees.map { "@" + TextSafety.escaped($0) }.joined(separator: " "),
                    toWidth: max(1, width - indentCells))
                lines.add(indent)
                lines.add(style.dim(names.text))
                lines.end(width: indentCells + names.width)
            }
            addCardMarks(task, indent: indent, width: width, dim: dim, scratch: &marks, to: &lines)
            for mark in conflictMarks {
                let text = TerminalCells.truncate(mark, toWidth: max(1, width - indentCells))
                lines.add(indent)
                lines.add(style.red(text))
                lines.end(width: indentCells + TerminalCells.width(of: text))
            }
        }
        return lines
    }

    /// A card's checklist progress and labels (``CardMarks``), written
    /// where they go when they fit as they are (`scratch`: bytes reused from card to card).
    private func addCardMarks(
        _ task: BoardTask, indent: String, width: Int, dim: (start: String, end: String), scratch marks: inout [UInt8],
        to lines: inout Lines
    ) {
        let indentCells = indent.utf8.count
        marks.removeAll(keepingCapacity: true)
        let markCells = CardMarks.append(task, to: &marks)
        guard !marks.isEmpty else { return }
        let room = max(1, width - indentCells)
        lines.add(indent)
        if let markCells, markCells <= room {
            if !dim.start.isEmpty { lines.add(dim.start) }
            lines.add(bytes: marks)
            if !dim.end.isEmpty { lines.add(dim.end) }
            lines.end(width: indentCells + markCells)
        } else {
            let text = TerminalCells.fit(String(decoding: marks, as: UTF8.self), toWidth: room)
            lines.add(style.dim(text.text))
            lines.end(width: indentCells + text.width)
        }
    }

    /// A task's first line: its short id (dimmed when in colour), then its
    /// title cut to the room left.
    private func addTitleLine(
        _ task: BoardTask, idCells: Int, width: Int, dim: (start: String, end: String), to lines: inout Lines
    ) {
        let priority = PriorityNames.mark(task.priority, localizer: localizer)
        let title = priority.isEmpty ? TextSafety.escaped(task.title) : priority + " " + TextSafety.escaped(task.title)
        let room = max(1, width - idCells - 1)
        // The id written as hex digits where it goes, dimmed when in colour.
        if !dim.start.isEmpty { lines.add(dim.start) }
        lines.addHexPrefix(of: task.id, idCells)
        if !dim.end.isEmpty { lines.add(dim.end) }
        lines.add(" ")
        // Cut where it lies, without making the cut title as a String.
        if let fitted = TerminalCells.fitPrefix(title, toWidth: room) {
            lines.add(title, prefix: fitted.kept)
            if fitted.ellipsis { lines.add("…") }
            lines.end(width: idCells + 1 + fitted.width)
        } else {
            let fitted = TerminalCells.fit(title, toWidth: room)
            lines.add(fitted.text)
            lines.end(width: idCells + 1 + fitted.width)
        }
    }

    /// Sync's marks on a task: the fields in conflict, a task kept from a deletion.
    private func syncMarks(of task: BoardTask) -> [String] {
        var marks: [String] = []
        if !task.conflicts.isEmpty {
            let fields = localizer.list(task.conflicts.keys.sorted().map { FieldNames.label($0, localizer) })
            // After the colon as the language writes it (French: « Conflit : titre »).
            marks.append(localizer.string(.listConflict, .text(localizer.afterColon(fields))))
        }
        if task.restored { marks.append(localizer.string(.listRestored)) }
        return marks
    }

    /// A task's deadline line, under its title (`indent` deep), red when overdue.
    private func addDeadline(
        _ deadline: Deadline, overdue: Bool, indent: String, width: Int, deadlines: DeadlineFormatter, to lines: inout Lines
    ) {
        let indentCells = indent.utf8.count
        let (due, time) = deadline.shown(in: style.zone)
        // At 80 columns a column has 25 cells: a compact date, and if
        // need be a shallower indent, keep the deadline whole.
        var lead = indent
        var label = deadlines.label(due, time: time, overdue: overdue, fitting: width - indentCells, today: today)
        if TerminalCells.width(of: label) > width - indentCells {
            lead = String(indent.prefix(2))
            label = deadlines.label(due, time: time, overdue: overdue, fitting: width - lead.utf8.count, today: today)
        }
        let text = TerminalCells.fit(label, toWidth: max(1, width - lead.utf8.count))
        lines.add(lead)
        lines.add(overdue ? style.red(text.text) : text.text)
        lines.end(width: lead.utf8.count + text.width)
    }
}
