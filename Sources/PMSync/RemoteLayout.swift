import PMCore

/// Where events live on a remote (DESIGN.md §9).
///
/// Each replica publishes what it made since its last sync as one new,
/// immutable **segment**: `events/<replica>/0/2/a.jsonl` is its 42nd
/// (the segment's number in hex, one digit per folder, at least three). A sync
/// adds one small file and, in git, a handful of small trees: the remote
/// grows with the changes, not with the syncs, and a copy never reads a
/// segment twice. Older pm wrote each replica's whole log to
/// `events/<replica>.jsonl` at every sync; such files are still read.
/// Anything else that ends in `.jsonl` and starts with a replica's id (or
/// lies in its folder) is a sync tool's conflicted copy: read, then set aside.
///
/// `forwarded/<replica>/…` holds, in segments of the same shape, other
/// replicas' events that this replica passes on: those that reached it by a
/// side path (`pm merge`, a conflicted copy) and that the remote lacks. Each
/// must carry its own replica's signature (``EventSeal``): forwarding never
/// lets a copy speak for another. Older pm does not look there.
enum RemoteLayout {
    /// A file's place: whose it is, what it is, and whether it forwards.
    struct Entry: Equatable {
        var replica: TaskID
        var kind: Kind
        /// In `forwarded/`: any signed replica's events, passed on by `replica`.
        var forwarded = false

        /// The key of its segments in the sync state.
        var key: String { (forwarded ? forwardedFolder + "/" : "") + replica.rawValue }
    }

    enum Kind: Equatable {
        /// `events/<replica>.jsonl`, written whole by older pm.
        case whole
        /// `events/<replica>/…/<digit>.jsonl`: the replica's segment `number`.
        case segment(Int)
        /// Another name of either: a conflicted copy.
        case copy
    }

    /// Fewest hex digits in a segment's path.
    static let digits = 3
    /// Most digits read (a larger number names no segment pm writes).
    static let maximumDigits = 12

    /// The largest segment number a reader reads (``maximumDigits`` hex digits).
    static let largestNumber = (1 << (4 * maximumDigits)) - 1

    /// How far beyond the last number known a copy's next segment may lie:
    /// a copy numbers its segments one after another, skipping only those a
    /// remote lost; a number further on was not written by it.
    static let largestGap = 4096

    /// The names among `entries` (this copy's own folders) whose numbers lie
    /// far beyond what it knows it wrote: each key's numbers are followed up
    /// from the highest it knows (`known`, `used`) while no step is larger
    /// than ``largestGap``; whatever lies past the first larger step was
    /// planted there.
    static func farAhead(_ entries: [Entry], known: [String: NumberSet], used: [String: Int]) -> Set<String> {
        var numbers: [String: [Int]] = [:]
        for entry in entries {
            if case .segment(let number) = entry.kind { numbers[entry.key, default: []].append(number) }
        }
        var result = Set<String>()
        for (key, list) in numbers {
            guard let owner = entries.first(where: { $0.key == key }) else { continue }
            var reached = max(known[key]?.max ?? 0, used[key] ?? 0)
            for number in list.sorted() where number > reached {
                if number - reached > largestGap {
                    result.insert(segment(owner.replica, number, forwarded: owner.forwarded))
                } else {
                    reached = number
                }
            }
        }
        return result
    }

    /// The folder of forwarded events.
    static let forwardedFolder = "forwarded"

    /// The replica a file in `events/` or `forwarded/` belongs to, and what
    /// it is; nil for a file that names no replica (not read).
    static func classify(_ name: String) -> Entry? {
        let forwarded = name.hasPrefix(forwardedFolder + "/")
        guard forwarded || name.hasPrefix("events/"), name.hasSuffix(".jsonl") else { return nil }
        let path = name.dropFirst(forwarded ? forwardedFolder.count + 1 : "events/".count).dropLast(".jsonl".count)
        guard let replica = TaskID(String(path.prefix(36))) else { return nil }
        let rest = path.dropFirst(36)
        // Older pm's whole file has no forwarded form: any other name is a copy.
        if rest.isEmpty { return Entry(replica: replica, kind: forwarded ? .copy : .whole, forwarded: forwarded) }
        guard rest.first == "/" else { return Entry(replica: replica, kind: .copy, forwarded: forwarded) }
        return Entry(replica: replica, kind: number(rest.dropFirst()).map(Kind.segment) ?? .copy, forwarded: forwarded)
    }

    /// The number a segment path (`0/2/a`) spells: every folder one
    /// lowercase hex digit, one spelling per number (no extra leading zeros).
    private static func number(_ path: Substring) -> Int? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= digits, parts.count <= maximumDigits,
            parts.allSatisfy({ $0.count == 1 && $0.allSatisfy { "0123456789abcdef".contains($0) } }),
            parts.count == digits || parts.first != "0",
            let value = Int(parts.joined(), radix: 16), value > 0
        else { return nil }
        return value
    }

    /// The name of `replica`'s segment `number` (of its forwarded events: `forwarded`).
    static func segment(_ replica: TaskID, _ number: Int, forwarded: Bool = false) -> String {
        let hex = String(number, radix: 16)
        let padded = String(repeating: "0", count: max(0, digits - hex.count)) + hex
        return (forwarded ? forwardedFolder : "events") + "/" + replica.rawValue + "/"
            + padded.map(String.init).joined(separator: "/") + ".jsonl"
    }
}
