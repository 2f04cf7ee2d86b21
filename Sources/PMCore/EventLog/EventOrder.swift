/// Where an event stands in merge order: hybrid clock, then replica, then
/// event id — so a machine with a fast clock cannot win every time for long,
/// and two events never tie.
public struct EventOrder: Comparable, Hashable, Sendable {
    public var clock: HybridClock
    public var replica: String
    public var id: String

    public init(_ event: Event) {
        clock = event.clock
        replica = event.replica.rawValue
        id = event.id.rawValue
    }

    public init(clock: HybridClock, replica: String, id: String) {
        self.clock = clock
        self.replica = replica
        self.id = id
    }

    public static func < (a: EventOrder, b: EventOrder) -> Bool {
        if a.clock != b.clock { return a.clock < b.clock }
        if a.replica != b.replica { return a.replica.utf8.lexicographicallyPrecedes(b.replica.utf8) }
        return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}
