/// Which ids of a list repeat, for one pass over a board: open addressing
/// on the ids' own bits, mixed with a seed drawn per table, holding places
/// in the list (four bytes each) rather than ids. `Set<TaskID>` hashed
/// every id with SipHash, a twentieth of a `pm list`. Ids come from other
/// machines, so a probe that runs long (ids crafted to collide) moves the
/// table to `Set`, which is built to withstand that: the worst case stays
/// bounded.
struct IDTable {
    private let ids: [TaskID]
    private var slots: [Int32]
    private let mask: Int
    private let seed: UInt64
    private var fallback: Set<TaskID>?
    /// Probes before giving up on the fast table.
    private static let longestProbe = 32

    /// A table for the places of `ids`, none added yet.
    /// - Parameter slots: at least this many slots (tests make it too
    ///   small, to see the table move to a Set).
    init(_ ids: [TaskID], slots least: Int? = nil) {
        self.ids = ids
        var size = 16
        while size < least ?? (ids.count * 2) { size <<= 1 }
        slots = Array(repeating: -1, count: size)
        mask = size - 1
        var random = SystemRandomNumberGenerator()
        seed = random.next() | 1
    }

    /// Adds the id at `place`; false when an earlier place has it already.
    mutating func insert(_ place: Int) -> Bool {
        let id = ids[place]
        if fallback != nil { return fallback!.insert(id).inserted }
        let (high, low) = id.words
        var mixed = (high ^ seed) &* 0x9E37_79B9_7F4A_7C15 ^ low &* (seed | 0x1000_0000_0000_0001)
        mixed ^= mixed >> 29
        var slot = Int(truncatingIfNeeded: mixed) & mask
        for _ in 0..<Self.longestProbe {
            let held = Int(slots[slot])
            if held < 0 {
                slots[slot] = Int32(truncatingIfNeeded: place)
                return true
            }
            if ids[held] == id { return false }
            slot = (slot + 1) & mask
        }
        let ids = self.ids
        var set = Set(slots.filter { $0 >= 0 }.map { ids[Int($0)] })
        slots = []
        let inserted = set.insert(id).inserted
        fallback = set
        return inserted
    }
}
