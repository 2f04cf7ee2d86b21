import PMCore

/// What one round of a sync makes of the remote's listing: this copy's own
/// segments there (and those planted far ahead among them), every
/// segment's number and bytes, whether the remote lost changes this copy
/// holds, and the files read within their budgets (``Syncer``).
extension Syncer {
    /// A file the remote lists, with what its name says it is.
    typealias ListedFile = (RemoteEntry, RemoteLayout.Entry)

    /// This copy's segments the remote lists, by key. What this copy
    /// published: each of its ids' segments, and its forwarded ones —
    /// numbered on from what this copy knows it wrote. A number far beyond
    /// (someone else planted it in this copy's folder) is no segment of its
    /// own: read as a conflicted copy is (its entry made one), set aside, and said.
    func listOwn(
        _ entries: inout [ListedFile], notFiles: [String], mine: [String], saved: SyncState, used: [String: Int],
        report: inout Report
    ) -> [String: NumberSet] {
        let farAhead = RemoteLayout.farAhead(
            entries.map(\.1).filter { mine.contains($0.key) }, known: saved.segments, used: used)
        var listed: [String: NumberSet] = [:]
        for index in entries.indices where mine.contains(entries[index].1.key) {
            guard case .segment(let number) = entries[index].1.kind else { continue }
            if farAhead.contains(entries[index].0.name) {
                entries[index].1.kind = .copy
                report.farAhead.append(entries[index].0.name)
            } else {
                listed[entries[index].1.key, default: NumberSet()].insert(number)
            }
        }
        // Something that is no file, planted where this copy would write its
        // next segment (a folder named 2.jsonl), is passed over and moved
        // aside: each sync failed on it, said "offline" (issue 43, item 12).
        report.notFiles = notFiles
        for name in notFiles {
            guard let entry = RemoteLayout.classify(name), mine.contains(entry.key),
                case .segment(let number) = entry.kind
            else { continue }
            listed[entry.key, default: NumberSet()].insert(number)
            report.farAhead.append(name)
        }
        return listed
    }

    /// Every segment's number and bytes, whoever's, by key.
    static func segments(in entries: [ListedFile]) -> (numbers: [String: NumberSet], bytes: [String: [Int: Int64]]) {
        var numbers: [String: NumberSet] = [:]
        var bytes: [String: [Int: Int64]] = [:]
        for (file, entry) in entries {
            guard case .segment(let number) = entry.kind else { continue }
            numbers[entry.key, default: NumberSet()].insert(number)
            bytes[entry.key, default: [:]][number] = file.size
        }
        return (numbers, bytes)
    }

    /// Whether the remote lost changes this copy holds: one of this copy's
    /// segments no longer listed, or anyone's gone or not the bytes it had.
    static func remoteLost(
        _ saved: SyncState, mine: [String], listed: [String: NumberSet], numbers: [String: NumberSet],
        bytes: [String: [Int: Int64]]
    ) -> Bool {
        mine.contains(where: { !(saved.segments[$0] ?? NumberSet()).isSubset(of: listed[$0] ?? NumberSet()) })
            || saved.segments.contains(where: { key, known in
                // Anyone's segment gone, or not the bytes it had: changes
                // this copy holds may be missing there (issue 43).
                !known.isSubset(of: numbers[key] ?? NumberSet())
                    || saved.sizes[key].map { $0 != Self.bytes(of: known, in: bytes[key] ?? [:]) } == true
            })
    }

    /// Reads the listed files within their budgets, each event through the
    /// gate; what was skipped, cut, set aside or ignored goes in `report`.
    func readRemote(_ entries: [ListedFile], unlisted: [String], saved: SyncState, report: inout Report) -> Reading {
        var read = Reading(gate: EventGate(now: now().milliseconds), known: saved.segments)
        read.report.cut += unlisted.map { ($0, 0) }
        // Smallest first: a few huge files (sparse, growing) cannot use up the
        // budget before the ordinary ones are read.
        for (file, entry) in entries.sorted(by: { ($0.0.size, $0.0.name) < ($1.0.size, $1.0.name) }) {
            read.take(file, entry, own: own.contains(entry.replica))
        }
        report.skipped = read.report.skipped
        report.cut = read.report.cut
        report.stoppedAtLongLine = read.report.stoppedAtLongLine
        report.setAside = read.report.setAside.filter { !report.farAhead.contains($0) }
        report.ignored += read.report.ignored
        return read
    }
}
