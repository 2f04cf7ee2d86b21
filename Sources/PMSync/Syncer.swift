import PMCore

/// One sync (DESIGN.md §9): read what the remote holds, fold every other
/// replica's events into the local board by PMCore's merge rules, publish
/// this replica's own events to its own file, and remember how far it got.
/// The remote is untrusted (RELIABILITY.md, "bytes from elsewhere"): every
/// event passes PMCore's one gate (``EventGate``) — a line that does not
/// parse, an event claiming another replica than its file, a clock far
/// ahead, oversized or unsafe text, a reserved field name, a bad time, an id
/// given twice — each is left out and reported, and the good events still
/// sync. A file not named after a replica is ignored and named; files are
/// streamed within budgets, so memory stays bounded whatever the remote holds.
public struct Syncer: Sendable {
    public let store: BoardStore
    public let state: SyncStateStore
    public let transport: Transport
    /// The replica this copy's new events claim.
    public let replica: TaskID
    /// Ids this copy had before (its name-based id, before it signed): what
    /// it made under them is still its own to publish, in their own files.
    public let former: [TaskID]
    /// This machine's clock, in milliseconds, and as ISO 8601 for the state file.
    public let now: @Sendable () -> (milliseconds: Int64, iso: String)
    public let makeID: @Sendable () -> TaskID

    public init(
        store: BoardStore, state: SyncStateStore, transport: Transport, replica: TaskID, former: [TaskID] = [],
        now: @escaping @Sendable () -> (milliseconds: Int64, iso: String), makeID: @escaping @Sendable () -> TaskID
    ) {
        self.store = store
        self.state = state
        self.transport = transport
        self.replica = replica
        self.former = former.filter { $0 != replica }
        self.now = now
        self.makeID = makeID
    }

    /// What a sync did.
    public struct Report: Equatable, Sendable {
        /// Events new here, and this replica's events the remote did not have.
        public var received = 0
        public var sent = 0
        /// Other replicas' events passed on (they reached this copy by a side path).
        public var forwarded = 0
        /// Of those, the ones this copy had synced with the remote it had
        /// before this one (``SyncState/previousSyncedEvents``): they came
        /// through it, not by `pm merge` or a conflicted copy.
        public var forwardedFromPrevious = 0
        /// Files with lines left out: name, count, first line.
        public var skipped: [(file: String, count: Int, firstLine: Int)] = []
        /// Conflicted copies merged and moved aside.
        public var setAside: [String] = []
        /// Changes of copies the board does not take (unsigned, and new
        /// since its copies sign: ``ReplicaLedger``): the name they give, how many.
        public var unsigned: [(by: String, count: Int)] = []
        /// Files in `events/` not named after a replica: not read.
        public var ignored: [String] = []
        /// Files read only up to their budget (0: not read at all): name, bytes read.
        public var cut: [(file: String, bytes: Int)] = []
        /// Files read only up to a line longer than any pm writes.
        public var stoppedAtLongLine: [String] = []
        /// Files in this copy's own folders numbered far beyond what it
        /// wrote (planted): read as conflicted copies, then moved aside.
        public var farAhead: [String] = []
        /// What is in `events/` but no file (a link, a pipe, a folder where
        /// a file belongs): not read. Those at one of this copy's own
        /// segment names are moved aside, and the number passed over.
        public var notFiles: [String] = []

        public static func == (a: Report, b: Report) -> Bool {
            a.received == b.received && a.sent == b.sent && a.forwarded == b.forwarded && a.setAside == b.setAside
                && a.unsigned.map(\.count) == b.unsigned.map(\.count)
                && a.skipped.map(\.file) == b.skipped.map(\.file) && a.ignored == b.ignored
                && a.cut.map(\.file) == b.cut.map(\.file) && a.farAhead == b.farAhead && a.notFiles == b.notFiles
        }
    }

    /// Syncs once. Offline: ``SyncError/unreachable(target:detail:)``, with the
    /// attempt recorded; nothing local is lost or changed.
    public func sync() throws -> Report {
        // One sync of this copy at a time; the others wait their turn.
        let lock = try SyncLock.acquire(state.path + ".lock")
        defer { lock.release() }
        return try lock.whileHeld { try syncHoldingLock() }
    }

    private func syncHoldingLock() throws -> Report {
        var saved = try state.load()
        // A log that no longer has the line the last sync ended at was put
        // back from a backup or made again: every segment is read again and
        // every change of this replica is offered again, nothing taken as known.
        if saved.syncedLength > 0, store.eventID(endingAt: saved.syncedLength)?.rawValue != saved.syncedLast {
            (saved.segments, saved.syncedEvents, saved.syncedLength) = ([:], 0, 0)
        }
        var used: [String: Int] = [:]
        do {
            for _ in 0..<6 {
                do {
                    // Before publishing, what the state is to become: a sync
                    // killed once its files landed is then known for what it did.
                    let (report, extent, segments, sizes) = try attempt(saved, used: used) { publishing in
                        var noted = saved
                        noted.publishing = publishing
                        try state.save(noted)
                    }
                    saved.lastSync = now().iso
                    saved.lastAttempt = saved.lastSync
                    saved.lastAttemptOffline = false
                    saved.offlineSince = nil
                    (saved.syncedEvents, saved.syncedLength) = extent
                    saved.syncedLast = store.eventID(endingAt: extent.1)?.rawValue
                    saved.segments = segments
                    saved.sizes = sizes
                    saved.publishing = nil
                    if !saved.replicas.contains(replica.rawValue) { saved.replicas.append(replica.rawValue) }
                    saved.previousRemote = nil
                    saved.previousSyncedEvents = nil
                    try state.save(saved)
                    return report
                } catch SyncError.rejected {
                    continue  // someone published first: fetch their events and go again
                } catch Restart.remoteLost {
                    // The remote lost changes this copy holds (a segment put
                    // back from a backup, shortened, or the older side of a
                    // sync tool's conflict kept): everything is read again,
                    // and whatever the remote lacks sent again, whoever made
                    // it — this copy's own under new numbers (a copy that read
                    // a lost segment never reads its number again), others'
                    // signed ones passed on.
                    for (key, numbers) in saved.segments { used[key] = max(used[key] ?? 0, numbers.max ?? 0) }
                    (saved.segments, saved.sizes, saved.syncedEvents, saved.syncedLength) = ([:], [:], 0, 0)
                }
            }
            throw SyncError.unreachable(target: transport.description, detail: "")
        } catch let error as SyncError {
            if case .unreachable = error {
                saved.lastAttempt = now().iso
                if !saved.lastAttemptOffline || saved.offlineSince == nil { saved.offlineSince = saved.lastAttempt }
                saved.lastAttemptOffline = true
                try? state.save(saved)
            }
            throw error
        }
    }

    /// A round that must start again from nothing known.
    private enum Restart: Error { case remoteLost }

    /// This copy's ids: its own and its former ones.
    var own: [TaskID] { [replica] + former }

    /// One round; returns what it did, the log's extent the remote now has,
    /// and the segments the local log now holds.
    /// - Parameter used: the highest segment number each key had before a restart.
    /// - Parameter note: told what is about to be published, before it is.
    private func attempt(
        _ saved: SyncState, used: [String: Int], note: (SyncState.Publishing) throws -> Void
    ) throws -> (Report, (Int, Int), [String: NumberSet], [String: Int]) {
        var report = Report()
        let snapshot = try transport.fetch()
        var entries = snapshot.files.compactMap { file in RemoteLayout.classify(file.name).map { (file, $0) } }
        report.ignored += snapshot.files.filter { RemoteLayout.classify($0.name) == nil }.map(\.name)
        let mine = own.map(\.rawValue) + [RemoteLayout.forwardedFolder + "/" + replica.rawValue]
        let listed = listOwn(&entries, notFiles: snapshot.notFiles, mine: mine, saved: saved, used: used, report: &report)
        let (numbers, bytes) = Self.segments(in: entries)
        // (A listing cut short by its limit proves nothing lost.)
        if snapshot.unlisted.isEmpty, Self.remoteLost(saved, mine: mine, listed: listed, numbers: numbers, bytes: bytes) {
            throw Restart.remoteLost
        }
        let read = readRemote(entries, unlisted: snapshot.unlisted, saved: saved, report: &report)
        let merged = try merge(read, boardID: snapshot.boardID)
        // What the board does not take is not counted as received, and is said.
        report.unsigned = merged.setAside
        report.received = merged.added - merged.setAside.reduce(0) { $0 + $1.count }
        let extent = (merged.logEvents, merged.logLength)
        var known = read.known
        guard merged.logEvents > 0 else {
            try shareBoard(merged.boardID, remoteNamesIt: snapshot.boardID != nil, report: report)
            return (report, extent, known, Self.sizes(of: known, bytes, published: []))
        }
        // What this copy made since its last sync (all of it after a restart),
        // and what reached it by a side path that the remote lacks.
        let since = try store.eventList(after: LogPosition(events: saved.syncedEvents, length: saved.syncedLength))
        // The first of `since` that had been synced with a replaced remote.
        let earlier = saved.previousRemote == nil ? 0 : max(0, (saved.previousSyncedEvents ?? 0) - saved.syncedEvents)
        var (files, published) = try outgoing(
            since, read, listed: listed, known: known, used: used, syncedWithPrevious: earlier, report: &report)
        if snapshot.boardID == nil {
            files.append(RemoteFile(name: RemoteDescription.name, bytes: RemoteDescription.bytes(board: merged.boardID)))
        }
        for (key, number) in published { known[key, default: NumberSet()].insert(number) }
        if !files.isEmpty || !report.setAside.isEmpty || !report.farAhead.isEmpty {
            if !published.isEmpty {
                try note(
                    SyncState.Publishing(
                        events: extent.0, length: extent.1, last: store.eventID(endingAt: extent.1)?.rawValue,
                        segments: known, files: files.map(\.name)))
            }
            let message = Self.commitMessage(sent: report.sent, forwarded: report.forwarded)
            try transport.publish(files, aside: report.setAside + report.farAhead, message: message)
        }
        return (report, extent, known, Self.sizes(of: known, bytes, published: zip(published, files).map { ($0.0, $0.1) }))
    }

    /// Folds the events read into the local board (a remote of another board is refused).
    private func merge(_ read: Reading, boardID: TaskID?) throws -> BoardStore.MergeResult {
        do {
            return try store.mergeDetailed(read.incoming, boardID: boardID, newBoardID: makeID(), replica: replica)
        } catch PMError.otherBoard(_, let found, let expected) {
            throw SyncError.otherBoard(remote: found, local: expected)
        }
    }

    /// A first sync before any change: the remote takes this board's id
    /// (unless it names one already), and conflicted copies are set aside.
    private func shareBoard(_ boardID: TaskID, remoteNamesIt: Bool, report: Report) throws {
        let description =
            remoteNamesIt ? [] : [RemoteFile(name: RemoteDescription.name, bytes: RemoteDescription.bytes(board: boardID))]
        if !description.isEmpty || !report.setAside.isEmpty || !report.farAhead.isEmpty {
            try transport.publish(
                description, aside: report.setAside + report.farAhead, message: "Shared board \(boardID.rawValue)")
        }
    }

    /// The bytes the segments `numbers` have, as listed.
    static func bytes(of numbers: NumberSet, in sizes: [Int: Int64]) -> Int {
        var total = 0
        for range in numbers.ranges {
            // Only what was listed: a range of numbers may be long, its files few.
            if range.count <= sizes.count {
                for number in range { total &+= Int(sizes[number] ?? 0) }
            } else {
                for (number, size) in sizes where range.contains(number) { total &+= Int(size) }
            }
        }
        return total
    }

    /// Each replica's known segments' bytes after a round: as listed, and
    /// the segments this round published.
    static func sizes(
        of known: [String: NumberSet], _ bytes: [String: [Int: Int64]],
        published: [((key: String, number: Int), RemoteFile)]
    ) -> [String: Int] {
        var all = bytes
        for ((key, number), file) in published { all[key, default: [:]][number] = Int64(file.bytes.count) }
        var result: [String: Int] = [:]
        for (key, numbers) in known { result[key] = Self.bytes(of: numbers, in: all[key] ?? [:]) }
        return result
    }

    /// The segments to publish: this copy's new events (one segment for each
    /// of its ids that has some), and the signed events of others it holds
    /// that the remote lacks (read from a conflicted copy now, or in the log
    /// since the last sync: `pm merge`, a conflicted copy beside the board).
    private func outgoing(
        _ since: [Event], _ read: Reading, listed: [String: NumberSet], known: [String: NumberSet], used: [String: Int],
        syncedWithPrevious: Int, report: inout Report
    ) throws -> (files: [RemoteFile], published: [(key: String, number: Int)]) {
        var files: [RemoteFile] = []
        var published: [(key: String, number: Int)] = []
        func add(_ events: [Event], as owner: TaskID, forwarded: Bool) throws {
            guard !events.isEmpty else { return }
            let key = RemoteLayout.Entry(replica: owner, kind: .copy, forwarded: forwarded).key
            let number = max(listed[key]?.max ?? 0, known[key]?.max ?? 0, used[key] ?? 0) + 1
            // Never a name a reader would skip (it reads at most 12 digits).
            guard number <= RemoteLayout.largestNumber else {
                throw SyncError.local(detail: RemoteLayout.segment(owner, number, forwarded: forwarded))
            }
            files.append(
                RemoteFile(
                    name: RemoteLayout.segment(owner, number, forwarded: forwarded), bytes: events.flatMap(EventCodec.line)))
            published.append((key, number))
        }
        let mine = since.filter { own.contains($0.replica) && !read.ownOnRemote.contains($0.id) }
        for id in own { try add(mine.filter { $0.replica == id }, as: id, forwarded: false) }
        report.sent = mine.count
        var chosen = Set<TaskID>()
        let forward = (since + read.fromCopies).filter { event in
            event.seal != nil && !own.contains(event.replica) && !read.onRemote.contains(event.id)
                && chosen.insert(event.id).inserted
        }
        try add(forward, as: replica, forwarded: true)
        report.forwarded = forward.count
        let earlier = Set(since.prefix(syncedWithPrevious).map(\.id))
        report.forwardedFromPrevious = forward.filter { earlier.contains($0.id) }.count
        return (files, published)
    }

    /// The commit's message on the `pm-board` branch, for people reading its
    /// history (the author is the user): `Sent 3 changes`, with what was passed on.
    static func commitMessage(sent: Int, forwarded: Int) -> String {
        func changes(_ count: Int) -> String { count == 1 ? "1 change" : "\(count) changes" }
        switch (sent, forwarded) {
        case (0, 0): return "Set aside conflicted copies"
        case (_, 0): return "Sent " + changes(sent)
        case (0, _): return "Passed on " + changes(forwarded) + " made elsewhere"
        default: return "Sent \(changes(sent)), passed on \(forwarded) made elsewhere"
        }
    }

    /// Changes made here since the last sync that the remote does not have
    /// yet. A sync killed after its files reached the remote (they are
    /// there, a folder's seen directly, a git remote's asked when `network`)
    /// is taken as done, and the state says so from then on.
    public func waiting(network: Bool = false) throws -> Int {
        let loaded = try state.load()
        var saved = loaded
        if let publishing = loaded.publishing, publishing.length >= loaded.syncedLength,
            store.eventID(endingAt: publishing.length)?.rawValue == publishing.last,
            transport.holds(publishing.files, network: network) == true
        {
            saved = loaded.published(publishing)
            // Only when no sync is under way and the state is still as read.
            if let lock = try? SyncLock.acquire(state.path + ".lock", timeout: 0) {
                defer { lock.release() }
                if (try? state.load()) == loaded { try? state.save(saved) }
            }
        }
        let position = LogPosition(events: saved.syncedEvents, length: saved.syncedLength)
        // This copy's own changes, and others' that reached it by a side
        // path since (pm merge, a conflicted copy): the next sync passes
        // those on (signed ones: only they can be), so they wait too
        // (issue 43, item 16: status said 0 while a sync passed on 2).
        return try store.eventList(after: position).filter {
            own.contains($0.replica) || ($0.seal != nil && $0.recordedBoard == nil)
        }.count
    }
}

extension Transport {
    var description: String {
        switch self {
        case let folder as FolderTransport: return folder.path
        case let git as GitTransport: return git.url
        default: return "remote"
        }
    }
}
