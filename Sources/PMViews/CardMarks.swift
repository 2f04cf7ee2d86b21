import PMCore
import PMICU

/// A card's checklist progress and labels on one short line, as the list
/// and the board show them under its title: `✓ 2/5 #bug #ui` (readable
/// without colour; every character one cell wide; the progress first, so
/// that a narrow column cuts labels, not it).
package enum CardMarks {
    package static func line(_ task: BoardTask) -> String {
        var parts: [String] = []
        let (done, total) = task.progress
        if total > 0 { parts.append("✓ \(done)/\(total)") }
        parts += task.labels.map { "#" + TextSafety.escaped($0) }
        return parts.joined(separator: " ")
    }
}
