import FoundationEssentials
import PMCore

/// Text for an HTML page (`pm export html`, `pm serve`): nothing in it is markup.
package enum HTMLText {
    /// `text` as HTML character data or an attribute value.
    package static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// A deadline as a page's `<time datetime>` holds it: the day, or the instant in UTC.
package enum HTMLDeadline {
    package static func machine(_ deadline: Deadline) -> String {
        guard let instant = deadline.instant else { return deadline.date.description }
        let stored = Timestamp.string(from: Date(timeIntervalSince1970: Double(instant)))
        return String(stored.prefix(16)) + "Z"
    }
}
