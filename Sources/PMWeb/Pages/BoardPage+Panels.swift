import PMCore
import PMICU
import PMKit
import PMLocalization
import PMViews

/// The parts around the columns: where the board syncs and how that went,
/// what others changed, and the history.
extension BoardPage {
    /// Where the board syncs, as the page says it.
    struct SyncView {
        enum Link: String {
            case online, offline, syncing
        }
        var link: Link
        var indicator: String
        var line: String
    }

    /// The sync button, the link's state and the last sync, or the "only
    /// here" mark of a board without a remote.
    func syncPart() -> String {
        guard let sync = view.sync else { return "<span class=\"sync\">\(HTML.text(l.string(.boardLinkLocal)))</span>" }
        var html = "<span class=\"sync \(sync.link.rawValue)\" title=\"\(HTML.text(sync.line))\">"
        html += "\(HTML.text(sync.indicator))</span><span class=\"sync\">\(HTML.text(sync.line))</span>"
        if !view.readOnly {
            let busy = sync.link == .syncing ? " disabled" : ""
            html += "<button type=\"button\" id=\"sync\" data-action=\"sync\"\(busy)>\(HTML.text(l.string(.webSync)))</button>"
        }
        return html
    }

    /// How many changes by others wait, and the button that marks them seen.
    func newsPart() -> String {
        guard !view.changed.isEmpty else { return "" }
        var html = "<span class=\"news\">\(HTML.text(l.plural(.webChanged, count: view.changed.count)))</span>"
        html += "<button type=\"button\" id=\"seen\" data-action=\"seen\">\(HTML.text(l.string(.webSeen)))</button>"
        return html
    }

    /// The newest changes, as `pm history` says them.
    func historyPart() -> String {
        var html = "<details class=\"history\" id=\"history-panel\"><summary>\(HTML.text(l.string(.webHistory)))</summary><ol>"
        for line in view.history {
            html += "<li><time>\(HTML.text(line.when))</time> <span class=\"by\">\(HTML.text(line.who))</span> "
            html += "\(HTML.text(line.what))</li>"
        }
        return html + "</ol></details>"
    }
}
