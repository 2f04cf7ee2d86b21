/// `pm export csv`: the board for spreadsheets, in the format ``CSVImport``
/// reads back — a header of pm's column names (`id, title, state, due,
/// assignees, body, labels, priority`, or the reader's words for them),
/// states as `todo|doing|done`, ISO dates, names and labels separated by
/// commas, priorities as `low|normal|high|urgent` (empty: none); RFC 4180
/// quoting and CRLF line ends; cells separated by commas, or by what the
/// reader's spreadsheet expects (`;` where a comma is the decimal mark). A
/// cell that a spreadsheet would run as a formula starts with `'`.
public enum CSVExport {
    /// - Parameters:
    ///   - delimiter: between cells: `,`, `;` or a tab.
    ///   - headers: the header row's names, in ``CSVColumn`` order (nil: pm's English ones).
    public static func document(_ tasks: [BoardTask], delimiter: Character = ",", headers: [String]? = nil) -> String {
        let separator = String(delimiter)
        let names = headers.flatMap { $0.count == CSVColumn.allCases.count ? $0 : nil } ?? CSVColumn.allCases.map(\.rawValue)
        var text = names.map { quoted(CSVTable.protected($0)) }.joined(separator: separator) + "\r\n"
        for task in tasks {
            let cells = CSVColumn.allCases.map { column -> String in
                switch column {
                case .id: return task.id.rawValue
                case .title: return task.title
                case .state: return task.state.rawValue
                case .due: return task.deadline?.typed ?? ""
                case .assignees: return Assignees.sorted(task.assignees).joined(separator: ", ")
                case .body: return task.body
                case .labels: return task.labels.joined(separator: ", ")
                case .priority: return task.priority?.rawValue ?? ""
                case .repeats: return task.recur?.rrule ?? ""
                }
            }
            text += cells.map { quoted(CSVTable.protected($0)) }.joined(separator: separator) + "\r\n"
        }
        return text
    }

    /// A cell quoted when it must be (a comma, a quote, a line break, spaces at an end).
    static func quoted(_ cell: String) -> String {
        let needs =
            cell.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == ";" || $0 == "\t" }
            || cell.first == " " || cell.last == " "
        guard needs else { return cell }
        return "\"" + cell.replacing("\"", with: "\"\"") + "\""
    }
}
