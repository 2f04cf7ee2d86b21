import PMCore
import PMICU

/// A card's recurrence, checklist progress and labels on one short line, as
/// the list and the board show them under its title: `↻ ✓ 2/5 #bug #ui`
/// (readable without colour; every character one cell wide; the marks
/// first, so that a narrow column cuts labels, not them).
package enum CardMarks {
    package static func line(_ task: BoardTask) -> String { measured(task).text }

    /// The line, and the cells it takes when every label is printable
    /// ASCII (nil otherwise: the caller measures it).
    package static func measured(_ task: BoardTask) -> (text: String, width: Int?) {
        var line: [UInt8] = []
        let width = append(task, to: &line)
        return (String(decoding: line, as: UTF8.self), width)
    }

    /// Appends the line's bytes to `line` (nothing when the card does not
    /// recur and has no checklist and no label), and returns the cells they take when every
    /// label is printable ASCII (nil otherwise: the caller measures it).
    /// A list writes each card's line where it goes, without a String.
    package static func append(_ task: BoardTask, to line: inout [UInt8]) -> Int? {
        let start = line.count
        var cells = 0
        if task.recur != nil {
            // "↻": one cell in three bytes.
            line.append(contentsOf: [0xE2, 0x86, 0xBB])
            cells -= 2
        }
        let (done, total) = task.progress
        if total > 0 {
            if line.count > start { line.append(0x20) }
            // "✓ ": two cells in four bytes (each appended: a literal array is made afresh).
            line.append(0xE2)
            line.append(0x9C)
            line.append(0x93)
            line.append(0x20)
            cells -= 2
            appendDigits(done, to: &line)
            line.append(UInt8(ascii: "/"))
            appendDigits(total, to: &line)
        }
        let labelsStart = line.count
        for label in task.labels {
            if line.count > start { line.append(0x20) }
            line.append(UInt8(ascii: "#"))
            var shown = TextSafety.escaped(label)
            shown.withUTF8 { line.append(contentsOf: $0) }
        }
        let plain = line.withUnsafeBufferPointer { bytes in
            bytes[labelsStart...].allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        }
        return plain ? cells + line.count - start : nil
    }

    private static func appendDigits(_ number: Int, to line: inout [UInt8]) {
        if number >= 10 { appendDigits(number / 10, to: &line) }
        line.append(UInt8(ascii: "0") + UInt8(number % 10))
    }
}
