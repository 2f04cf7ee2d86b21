/// A set of positive numbers kept as sorted, disjoint ranges, written
/// `1-40,42`: which of a replica's segments a copy has already read
/// (SyncState), small however many syncs there were.
public struct NumberSet: Equatable, Sendable {
    public private(set) var ranges: [ClosedRange<Int>] = []

    public init() {}

    public init<S: Sequence<Int>>(_ numbers: S) {
        for number in numbers { insert(number) }
    }

    public var isEmpty: Bool { ranges.isEmpty }
    public var max: Int? { ranges.last?.upperBound }

    public func contains(_ number: Int) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < number {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < ranges.count && ranges[low].contains(number)
    }

    /// Whether every number here is also in `other`.
    /// (Both walked once: a remote may list many segments.)
    public func isSubset(of other: NumberSet) -> Bool {
        var next = 0
        for range in ranges {
            while next < other.ranges.count, other.ranges[next].upperBound < range.lowerBound { next += 1 }
            guard next < other.ranges.count, other.ranges[next].lowerBound <= range.lowerBound,
                range.upperBound <= other.ranges[next].upperBound
            else { return false }
        }
        return true
    }

    public mutating func insert(_ number: Int) {
        guard number > 0, !contains(number) else { return }
        // The first range above it, by halving: numbers come in order, often many.
        var index = 0
        var high = ranges.count
        while index < high {
            let middle = (index + high) / 2
            if ranges[middle].lowerBound > number { high = middle } else { index = middle + 1 }
        }
        ranges.insert(number...number, at: index)
        if index > 0, ranges[index - 1].upperBound + 1 == number {
            ranges[index - 1] = ranges[index - 1].lowerBound...number
            ranges.remove(at: index)
            index -= 1
        }
        if index + 1 < ranges.count, ranges[index + 1].lowerBound == ranges[index].upperBound + 1 {
            ranges[index] = ranges[index].lowerBound...ranges[index + 1].upperBound
            ranges.remove(at: index + 1)
        }
    }

    /// The numbers in both.
    public func intersection(_ other: NumberSet) -> NumberSet {
        var result = NumberSet()
        for range in ranges {
            for theirs in other.ranges where theirs.overlaps(range) {
                result.ranges.append(
                    Swift.max(range.lowerBound, theirs.lowerBound)...Swift.min(range.upperBound, theirs.upperBound))
            }
        }
        return result
    }

    /// `1-40,42`.
    public var text: String {
        ranges.map { $0.count == 1 ? String($0.lowerBound) : "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
    }

    /// Reads ``text``; nil when it is not that form.
    public init?(text: String) {
        guard !text.isEmpty else { return }
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let low = Int(bounds[0]), let high = Int(bounds[bounds.count - 1]), low > 0, low <= high,
                (ranges.last?.upperBound).map({ $0 + 1 < low }) ?? true
            else { return nil }
            ranges.append(low...high)
        }
    }
}
