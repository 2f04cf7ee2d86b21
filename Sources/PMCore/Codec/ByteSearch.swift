extension Array where Element == UInt8 {
    /// Where `needle` first starts at or after `start`, or nil. Bytes, not
    /// text: a search through `String` goes by way of `_StringProcessing`,
    /// whose generic searchers cost more to set up at run time (their
    /// metadata, found by name) than a whole small command spends elsewhere.
    public func firstOffset(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard let lead = needle.first, start >= 0 else { return nil }
        var index = start
        while index + needle.count <= count {
            guard let found = self[index...].firstIndex(of: lead), found + needle.count <= count else { return nil }
            if self[found..<(found + needle.count)].elementsEqual(needle) { return found }
            index = found + 1
        }
        return nil
    }
}
