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
    public let replica: TaskID
    /// This machine's clock, in milliseconds, and as ISO 8601 for the state file.
    public let now: @Sendable () -> (milliseconds: Int64, iso: String)
    public let makeID: @Sendable () -> TaskID

    public init(
        store: BoardStore, state: SyncStateStore, transport: Transport, replica: TaskID,
        now: @escaping @Sendable () -> (milliseconds: Int64, iso: String), makeID: @escaping @Sendable () -> TaskID
    ) {
        self.store = store
        self.state = state
        self.transport = transport
        self.replica = replica
        self.now = now
        self.makeID = makeID
    }

    /// What a sync did.
    public struct Report: Equatable, Sendable {
        /// Events new here, and this replica's events the remote did not have.
        public var received = 0
        public var sent = 0
        /// Files with lines left out: name, count, first line.
        public var skipped: [(file: String, count: Int, firstLine: Int)] = []
        /// Conflicted copies merged and moved aside.
        public var setAside: [String] = []
        /// Files in `events/` not named after a replica: not read.
        public var ignored: [String] = []
        /// Files read only up to their budget (0: not read at all): name, bytes read.
        public var cut: [(file: String, bytes: Int)] = []
        /// Files read only up to a line longer than any pm writes.
        public var stoppedAtLongLine: [String] = []

        public static func == (a: Report, b: Report) -> Bool {
            a.received == b.received && a.sent == b.sent && a.setAside == b.setAside
                && a.skipped.map(\.file) == b.skipped.map(\.file) && a.ignored == b.ignored
                && a.cut.map(\.file) == b.cut.map(\.file)
        }
    }

    /// Syncs once. Offline: ``SyncError/unreachable(target:detail:)``, with the
    /// attempt recorded; nothing local is lost or changed.
    public func sync() throws -> Report {
        // One sync of this copy at a time; the others wait their turn.
        let lock = try SyncLock.acquire(state.path + ".lock")
        defer { lock.release() }
        var saved = try state.load()
        // A log that no longer has the line the last sync ended at was put
        // back from a backup or made again: every segment is read again and
        // every change of this replica is offered again, nothing taken as known.
        if saved.syncedLength > 0, store.eventID(endingAt: saved.syncedLength)?.rawValue != saved.syncedLast {
            (saved.segments, saved.syncedEvents, saved.syncedLength) = ([:], 0, 0)
        }
        do {
            for _ in 0..<6 {
                do {
                    let (report, extent, segments) = try attempt(saved)
                    saved.lastSync = now().iso
                    saved.lastAttempt = saved.lastSync
                    saved.lastAttemptOffline = false
                    (saved.syncedEvents, saved.syncedLength) = extent
                    saved.syncedLast = store.eventID(endingAt: extent.1)?.rawValue
                    saved.segments = segments
                    try state.save(saved)
                    return report
                } catch SyncError.rejected {
                    continue  // someone published first: fetch their events and go again
                }
            }
            throw SyncError.unreachable(target: transport.description, detail: "")
        } catch let error as SyncError {
            if case .unreachable = error {
                saved.lastAttempt = now().iso
                saved.lastAttemptOffline = true
                try? state.save(saved)
            }
            throw error
        }
    }

    /// One round; returns what it did, the log's extent the remote now has,
    /// and the segments the local log now holds.
    private func attempt(_ saved: SyncState) throws -> (Report, (Int, Int), [String: NumberSet]) {
        var report = Report()
        let snapshot = try transport.fetch()
        var incoming: [Event] = []
        // This replica's events the remote holds (of what was read now), and
        // its segments there.
        var ownRemoteIDs = Set<TaskID>()
        var ownListed = NumberSet()
        var known = saved.segments
        var read: [(replica: String, number: Int)] = []
        var gate = EventGate(now: now().milliseconds)
        var budget = OtherCopy.totalBytes
        report.cut += snapshot.unlisted.map { ($0, 0) }
        // Smallest first: a few huge files (sparse, growing) cannot use up the
        // budget before the ordinary ones are read.
        let listed = snapshot.files.filter { $0.name.hasPrefix("events/") }.sorted { ($0.size, $0.name) < ($1.size, $1.name) }
        for file in listed {
            // Anything not named after a replica names none to check its events against: not read.
            guard let (claimed, kind) = RemoteLayout.classify(file.name) else {
                report.ignored.append(file.name)
                continue
            }
            let own = claimed == replica
            if case .segment(let number) = kind {
                if own { ownListed.insert(number) }
                if known[claimed.rawValue]?.contains(number) == true { continue }  // already in the log
            }
            if budget <= 0 {
                report.cut.append((file.name, 0))
                continue
            }
            guard var copy = try? OtherCopy.stream(file.path, budget: &budget) else {
                report.ignored.append(file.name)  // gone, or no longer a regular file
                continue
            }
            let held = copy.events.map(\.id)
            copy.quarantine { gate.admit($0, replica: claimed) }
            if copy.skippedLines > 0 {
                report.skipped.append((file.name, copy.skippedLines, copy.firstSkippedLine ?? 0))
            }
            if copy.stoppedAtLongLine {
                report.stoppedAtLongLine.append(file.name)
            } else if let bytes = copy.cutAfterBytes {
                report.cut.append((file.name, bytes))
            }
            incoming += copy.events
            // This replica's own events already there (even one its clock made
            // far ahead, not taken here yet) are not published again.
            if own { ownRemoteIDs.formUnion(held) }
            let whole = copy.cutAfterBytes == nil && !copy.stoppedAtLongLine
            if case .segment(let number) = kind, whole, copy.skippedLines == 0 { read.append((claimed.rawValue, number)) }
            if kind == .copy && copy.cutAfterBytes == nil { report.setAside.append(file.name) }
        }
        let merged: BoardStore.MergeResult
        do {
            merged = try store.mergeDetailed(incoming, boardID: snapshot.boardID, newBoardID: makeID(), replica: replica)
        } catch PMError.otherBoard(_, let found, let expected) {
            throw SyncError.otherBoard(remote: found, local: expected)
        }
        report.received = merged.added
        let extent = (merged.logEvents, merged.logLength)
        // Segments read whole, every line taken, are in the log now.
        for (owner, number) in read { known[owner, default: NumberSet()].insert(number) }
        guard merged.logEvents > 0 else {
            // A first sync before any change: the remote takes this board's id.
            let description =
                snapshot.boardID != nil
                ? [] : [RemoteFile(name: RemoteDescription.name, bytes: RemoteDescription.bytes(board: merged.boardID))]
            if !description.isEmpty || !report.setAside.isEmpty {
                try transport.publish(description, aside: report.setAside, message: "pm: board \(merged.boardID.rawValue)")
            }
            return (report, extent, known)
        }
        // What this replica made since its last sync, or all of it when the
        // remote lost a segment it had (a remote restored from a backup).
        let ownKnown = known[replica.rawValue] ?? NumberSet()
        let lost = !ownKnown.isSubset(of: ownListed)
        let since = LogPosition(events: saved.syncedEvents, length: saved.syncedLength)
        let candidates = lost ? merged.own : try store.ownEventList(after: since, replica: replica)
        let own = candidates.filter { !ownRemoteIDs.contains($0.id) }
        known[replica.rawValue] = ownKnown.intersection(ownListed)
        var files: [RemoteFile] = []
        var number: Int?
        if !own.isEmpty {
            let next = max(ownListed.max ?? 0, ownKnown.max ?? 0) + 1
            number = next
            files.append(RemoteFile(name: RemoteLayout.segment(replica, next), bytes: own.flatMap(EventCodec.line)))
        }
        if snapshot.boardID == nil {
            files.append(RemoteFile(name: RemoteDescription.name, bytes: RemoteDescription.bytes(board: merged.boardID)))
        }
        if !files.isEmpty || !report.setAside.isEmpty {
            try transport.publish(files, aside: report.setAside, message: "pm: \(own.count) change(s) from \(replica.rawValue)")
        }
        if let number { known[replica.rawValue, default: NumberSet()].insert(number) }
        report.sent = own.count
        return (report, extent, known)
    }

    /// Changes made here since the last sync that the remote does not have yet.
    public func waiting() throws -> Int {
        let saved = try state.load()
        return try store.ownEvents(after: LogPosition(events: saved.syncedEvents, length: saved.syncedLength), replica: replica)
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
