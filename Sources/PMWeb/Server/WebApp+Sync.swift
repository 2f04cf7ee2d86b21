import Dispatch
import PMCore
import PMKit
import PMLocalization
import PMViews

/// Syncing from the page, and what the page says of it and of the history.
extension WebApp {
    /// The link's state and the last sync's line, as the terminal's board says them.
    func syncView(_ session: BoardSession, _ reader: WebReader) -> BoardPage.SyncView? {
        guard let (state, waiting) = session.syncWaiting() else { return nil }
        let l = reader.localizer
        let line =
            state.lastSync.map { l.plural(.listSync, count: waiting, .text(reader.style.dateTime($0))) }
            ?? l.plural(.listSyncNever, count: waiting)
        if syncing || state.lastAttempt == nil {
            return .init(link: .syncing, indicator: l.string(.boardLinkSyncing), line: line)
        }
        if let at = state.wentOffline {
            return .init(link: .offline, indicator: l.string(.boardLinkOffline, .text(reader.style.dateTime(at))), line: line)
        }
        return .init(link: .online, indicator: l.string(.boardLinkOnline), line: line)
    }

    /// The newest changes, each with when, who and what, in the reader's words.
    func historyLines(_ session: BoardSession, _ reader: WebReader, person: String) -> [BoardPage.HistoryLine] {
        guard let events = try? session.history(limit: 20) else { return [] }
        let view = HistoryView(localizer: reader.localizer, style: reader.style, reader: person)
        return events.map { .init(when: reader.style.dateTime($0.at), who: view.who($0), what: view.described($0)) }
    }

    /// The server's own sync, every `PM_SYNC_INTERVAL` (as `pm board` does):
    /// what others sent arrives, and what people changed here is passed on.
    func syncInBackground() {
        guard !syncing, let target = try? launch.session.requireRemote() else { return }
        syncing = true
        let session = launch.session
        DispatchQueue.global().async { [self] in
            _ = try? session.sync(target)
            queue.async { [self] in
                syncing = false
                live.changed(force: true)
            }
        }
    }

    /// Starts a sync off the server's queue (it may wait on the network);
    /// the page hears of its end as of any change. Returns what to say now.
    func startSync(_ session: BoardSession, _ reader: WebReader) throws -> String {
        let target = try session.requireRemote()
        guard !syncing else { return reader.localizer.string(.webSyncing) }
        syncing = true
        DispatchQueue.global().async { [self] in
            // Its result is in the sync state the page reads (online,
            // offline since, what waits) and in the board if anything came.
            _ = try? session.sync(target)
            queue.async { [self] in
                syncing = false
                live.changed(force: true)
            }
        }
        return reader.localizer.string(.webSyncing)
    }
}
