import Synchronization

/// Counts ingest requests handed to the store and not yet answered, and refuses past a bound: the door
/// where load is shed when the database slows or stops, so waiting requests (each holding its socket and
/// its decoded events) cannot pile up while the writer's deadline runs.
final class InFlightLimit: Sendable {
    let bound: Int
    private let count = Atomic<Int>(0)

    init(bound: Int) {
        self.bound = bound
    }

    /// Takes a place, or returns false (and takes none) when `bound` requests are in flight.
    func enter() -> Bool {
        if count.wrappingAdd(1, ordering: .relaxed).newValue <= bound { return true }
        count.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    /// Gives back a place taken by ``enter()``.
    func leave() {
        count.wrappingSubtract(1, ordering: .relaxed)
    }

    /// Requests in flight now.
    var current: Int { count.load(ordering: .relaxed) }
}
