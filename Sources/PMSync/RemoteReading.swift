import PMCore

/// What one round read from the remote: each file streamed within the
/// budgets and through the one gate, and what it tells about the remote.
struct Reading {
    var gate: EventGate
    /// Segments already in the local log, and those read whole now.
    var known: [String: NumberSet]
    var report = Syncer.Report()
    var budget = OtherCopy.totalBytes
    /// Every event admitted.
    var incoming: [Event] = []
    /// Events admitted from a conflicted copy (a side path: passed on).
    var fromCopies: [Event] = []
    /// Ids the remote holds in its own files, admitted: nothing to forward.
    var onRemote = Set<TaskID>()
    /// This copy's events the remote holds (even one its clock made far
    /// ahead, not taken here yet): not published again.
    var ownOnRemote = Set<TaskID>()

    init(gate: EventGate, known: [String: NumberSet]) {
        self.gate = gate
        self.known = known
    }

    mutating func take(_ file: RemoteEntry, _ entry: RemoteLayout.Entry, own: Bool) {
        if case .segment(let number) = entry.kind, known[entry.key]?.contains(number) == true { return }  // in the log
        if budget <= 0 {
            report.cut.append((file.name, 0))
            return
        }
        guard var copy = try? OtherCopy.stream(file.path, budget: &budget) else {
            report.ignored.append(file.name)  // gone, or no longer a regular file
            return
        }
        let held = copy.events.map(\.id)
        copy.quarantine { [entry] event in
            gate.admit(event, replica: entry.forwarded ? nil : entry.replica, forwarded: entry.forwarded)
        }
        if copy.skippedLines > 0 { report.skipped.append((file.name, copy.skippedLines, copy.firstSkippedLine ?? 0)) }
        if copy.stoppedAtLongLine {
            report.stoppedAtLongLine.append(file.name)
        } else if let bytes = copy.cutAfterBytes {
            report.cut.append((file.name, bytes))
        }
        incoming += copy.events
        // Only a segment of its own proves the remote holds a change: a
        // conflicted copy is set aside, and its changes must be sent again.
        if own && !entry.forwarded && entry.kind != .copy { ownOnRemote.formUnion(held) }
        if entry.kind == .copy {
            fromCopies += copy.events
            if copy.cutAfterBytes == nil { report.setAside.append(file.name) }
        } else {
            onRemote.formUnion(copy.events.map(\.id))
        }
        let whole = copy.cutAfterBytes == nil && !copy.stoppedAtLongLine
        if case .segment(let number) = entry.kind, whole, copy.skippedLines == 0 {
            known[entry.key, default: NumberSet()].insert(number)
        }
    }
}

extension Syncer {
    /// The events a remote's copy on this machine holds — a folder remote
    /// itself, or pm's clone of a git remote as of its last sync — each
    /// admitted by the gate; none when there is no such copy. Never the network.
    public static func eventsOnThisMachine(_ folder: String, now: Int64) -> [Event] {
        guard let snapshot = try? FolderTransport(path: folder).fetch() else { return [] }
        var read = Reading(gate: EventGate(now: now), known: [:])
        for file in snapshot.files {
            if let entry = RemoteLayout.classify(file.name) { read.take(file, entry, own: false) }
        }
        return read.incoming
    }
}
