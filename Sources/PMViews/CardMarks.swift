import PMCore
import PMICU

/// A card's labels and checklist progress on one short line, as the list,
/// the board and the pages show them under its title: `#bug #ui ✓ 2/5`
/// (readable without colour; every character one cell wide).
package enum CardMarks {
    package static func line(_ task: BoardTask) -> String {
        var parts = task.labels.map { "#" + TextSafety.escaped($0) }
        let (done, total) = task.progress
        if total > 0 { parts.append("✓ \(done)/\(total)") }
        return parts.joined(separator: " ")
    }
}
