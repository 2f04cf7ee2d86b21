extension EventLogFile {
    /// The newest `count` events in merge order (hybrid clock, replica, id)
    /// that `keep` accepts, newest first, each id once — the same on every
    /// copy that has the same events, whatever order they arrived in.
    ///
    /// Read backwards from the end. A change made here bounds everything
    /// before it; events merged from elsewhere are bounded only at the start
    /// of their batch (``HistoryMarks``). Reading stops where nothing left
    /// can be among the newest; without marks, at the log's start.
    public func readNewestInMergeOrder(
        _ count: Int, mentioning needle: [UInt8]?, marks: HistoryMarks?, where keep: (Event) -> Bool
    ) throws -> [Event] {
        guard count > 0 else { return [] }
        var found: [(order: EventOrder, event: Event)] = []
        var seen = Set<TaskID>()
        let from = marks?.from ?? Int.max
        var batches = (marks?.batches ?? [])[...]
        func trim() {
            found.sort { $0.order > $1.order }
            if found.count > count { found.removeSubrange(count...) }
        }
        try scanBackward(mentioning: needle) { event, start in
            let order = EventOrder(event)
            if keep(event), seen.insert(event.id).inserted {
                found.append((order, event))
                if found.count >= 2 * count + 64 { trim() }
            }
            // What bounds every event before this line, if anything does.
            guard start >= from else { return true }
            while let last = batches.last, last.start > start { batches.removeLast() }
            var bound = order
            if let batch = batches.last, start < batch.end {
                guard start == batch.start, let before = batch.bound else { return true }
                bound = before
            } else if case .other = event.kind {
                return true  // the board's record (at the start of time), or a newer pm's kind: bounds nothing
            }
            guard found.count >= count else { return true }
            trim()
            return found[count - 1].order < bound
        }
        trim()
        return found.map(\.event)
    }
}
