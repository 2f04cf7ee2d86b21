/// A set of task ids for one pass over a board: open addressing on the
/// ids' own bits, mixed with a seed drawn per table, with no per-id
/// allocation. `Set<TaskID>` hashed every id with SipHash, a twentieth of
/// a `pm list`. Ids come from other machines, so a probe that runs long
/// (ids crafted to collide) moves the table to `Set`, which is built to
/// withstand that: the worst case stays bounded.
struct IDTable {
    private var slots: [TaskID?]
    private let mask: Int
    private let seed: UInt64
    private var fallback: Set<TaskID>?
    /// Probes before giving up on the fast table.
    private static let longestProbe = 32

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = Array(repeating: nil, count: size)
        mask = size - 1
        var random = SystemRandomNumberGenerator()
        seed = random.next() | 1
    }

    /// Adds `id`; false when it was there already.
    mutating func insert(_ id: TaskID) -> Bool {
        if fallback != nil { return fallback!.insert(id).inserted }
        let (high, low) = id.words
        var mixed = (high ^ seed) &* 0x9E37_79B9_7F4A_7C15 ^ low &* (seed | 0x1000_0000_0000_0001)
        mixed ^= mixed >> 29
        var slot = Int(truncatingIfNeeded: mixed) & mask
        for _ in 0..<Self.longestProbe {
            guard let held = slots[slot] else {
                slots[slot] = id
                return true
            }
            if held == id { return false }
            slot = (slot + 1) & mask
        }
        var set = Set(slots.compactMap { $0 })
        slots = []
        let inserted = set.insert(id).inserted
        fallback = set
        return inserted
    }
}
