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
        do {
            for _ in 0..<6 {
                do {
                    let (report, extent) = try attempt()
                    saved.lastSync = now().iso
                    saved.lastAttempt = saved.lastSync
                    saved.lastAttemptOffline = false
                    (saved.syncedEvents, saved.syncedLength) = extent
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

    /// One round; returns what it did and the log's extent the remote now has.
    private func attempt() throws -> (Report, (Int, Int)) {
        var report = Report()
        let snapshot = try transport.fetch()
        let ownName = "events/" + replica.rawValue + ".jsonl"
        var incoming: [Event] = []
        var ownRemoteIDs = Set<TaskID>()
        var ownAhead: [Event] = []
        var gate = EventGate(now: now().milliseconds)
        var budget = OtherCopy.totalBytes
        // Smallest first: a few huge files (sparse, growing) cannot use up the
        // budget before the ordinary ones are read.
        let listed = snapshot.files.filter { $0.name.hasPrefix("events/") }.sorted { ($0.size, $0.name) < ($1.size, $1.name) }
        for file in listed {
            let base = String(file.name.dropFirst("events/".count))
            // A replica's own file is named by its id; a sync tool's conflicted
            // copy of one starts with it. Anything else names no replica to
            // check its events against: it is not read.
            guard base.hasSuffix(".jsonl"), let claimed = TaskID(String(base.prefix(36))) else {
                report.ignored.append(file.name)
                continue
            }
            let canonical = base == claimed.rawValue + ".jsonl"
            if budget <= 0 {
                report.cut.append((file.name, 0))
                continue
            }
            guard var copy = try? OtherCopy.stream(file.path, budget: &budget) else {
                report.ignored.append(file.name)  // gone, or no longer a regular file
                continue
            }
            copy.quarantine { event in
                let problem = gate.admit(event, replica: claimed)
                // This replica's own change, made while its clock ran far
                // ahead: not taken here yet, but never dropped from its file.
                if case .futureClock = problem, file.name == ownName { ownAhead.append(event) }
                return problem
            }
            if copy.skippedLines > 0 {
                report.skipped.append((file.name, copy.skippedLines, copy.firstSkippedLine ?? 0))
            }
            if copy.stoppedAtLongLine {
                report.stoppedAtLongLine.append(file.name)
            } else if let bytes = copy.cutAfterBytes {
                report.cut.append((file.name, bytes))
            }
            incoming += copy.events
            if file.name == ownName { ownRemoteIDs = Set(copy.events.map(\.id)) }
            if !canonical && copy.cutAfterBytes == nil { report.setAside.append(file.name) }
        }
        let merged = try store.mergeDetailed(incoming, boardID: snapshot.boardID, newBoardID: makeID(), replica: replica)
        report.received = merged.added
        let extent = (merged.logEvents, merged.logLength)
        guard merged.logEvents > 0 else { return (report, extent) }
        let own = merged.own.filter { !ownRemoteIDs.contains($0.id) }
        var files: [RemoteFile] = []
        if !own.isEmpty {
            // This replica's file is every event it made, as its log holds
            // them: whatever the remote file had that was ours was merged
            // just now, and lines someone else put there are not carried on.
            let logged = Set(merged.own.map(\.id))
            let kept = ownAhead.filter { !logged.contains($0.id) }
            files.append(RemoteFile(name: ownName, bytes: (merged.own + kept).flatMap(EventCodec.line)))
        }
        if snapshot.boardID == nil {
            files.append(RemoteFile(name: RemoteDescription.name, bytes: RemoteDescription.bytes(board: merged.boardID)))
        }
        if !files.isEmpty || !report.setAside.isEmpty {
            try transport.publish(files, aside: report.setAside, message: "pm: \(own.count) change(s) from \(replica.rawValue)")
        }
        report.sent = own.count
        return (report, extent)
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
