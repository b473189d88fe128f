import Foundation

/// Tunables of a store; the defaults suit a collector on a small box.
public struct StoreConfiguration: Sendable {
    /// Events waiting for the writer beyond which ingest is refused with 503, bounding memory.
    public var writerHighWaterMark: Int
    /// Milliseconds since 1970; replaceable so tests can place events in time.
    public var clock: @Sendable () -> Int64
    /// How long after `sent_at` a push's numbers become final; receipts received later are also counted as late.
    public var maturityWindowMillis: Int64
    /// The windows sessions and conversions are attributed by.
    public var attributionWindows: AttributionWindows
    /// Page cache of the SQLite writer connection, in megabytes (PostgreSQL ignores it). The cache keeps every
    /// page the writer touched up to its size, so it is resident memory that fills as the database grows; 8 MB
    /// (SQLite's own is 2): smaller, batch ingest with device and receipt ids re-reads evicted index pages from
    /// the OS cache; much larger, a collector holding thousands of connections passes its memory target
    /// (docs/PERFORMANCE.md).
    public var sqliteCacheMegabytes: Int
    /// How many custom action ids, platforms and versions each app admits as report columns and rows; later
    /// ones count as `other` (``BoundedField``).
    public var nameBounds: NameBounds

    public init(
        writerHighWaterMark: Int = 100_000, maturityWindowMillis: Int64 = StoreConfiguration.defaultMaturityWindowMillis,
        attributionWindows: AttributionWindows = AttributionWindows(), sqliteCacheMegabytes: Int = 8,
        nameBounds: NameBounds = NameBounds(),
        clock: @escaping @Sendable () -> Int64 = StoreConfiguration.systemClock
    ) {
        self.writerHighWaterMark = writerHighWaterMark
        self.nameBounds = nameBounds
        self.maturityWindowMillis = maturityWindowMillis
        self.attributionWindows = attributionWindows
        self.sqliteCacheMegabytes = sqliteCacheMegabytes
        self.clock = clock
    }

    /// Seven days: an offline device's push expires with APNs within that in practice.
    public static let defaultMaturityWindowMillis: Int64 = 7 * 24 * 3600 * 1000

    /// The wall clock in milliseconds since 1970.
    public static let systemClock: @Sendable () -> Int64 = {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}

/// Failures of the store that are not a client's fault.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The database was written by a newer PushTally; running old code on it could corrupt it.
    case databaseNewerThanCode(path: String)
    /// `sent_at` of a registered push cannot move: rollups and latency depend on it.
    case sentAtImmutable(pushID: String, current: Int64)
    /// Sends were posted for a push nobody registered, without a campaign to register it with.
    case pushNotRegistered(pushID: String)
    /// The database cannot be reached or refused the work for now (a PostgreSQL restart, a failover, a
    /// connection limit); nothing was committed and a retry may succeed.
    case unavailable(reason: String)
    /// The store cannot start as configured (a device secret that does not match the database, say).
    case misconfigured(String)
    /// An alert with this name exists: names label `pushtally_alert_firing`, so they are unique.
    case alertNameTaken(String)
    /// A push's send records would add up to more than ``SendTotals/maximum`` in `field`; nothing was written.
    case sendTotalOutOfRange(pushID: String, field: String)

    public var description: String {
        switch self {
        case .databaseNewerThanCode(let path):
            "\(path) was written by a newer version of PushTally; upgrade pushtally to open it"
        case .sentAtImmutable(let pushID, let current):
            "sent_at of push \(pushID) is already \(Timestamp.iso8601(millis: current)) and cannot move"
        case .pushNotRegistered(let pushID):
            "push \(pushID) is not registered; include campaign to register it"
        case .unavailable(let reason):
            "the database is unavailable: \(reason)"
        case .misconfigured(let message):
            message
        case .alertNameTaken(let name):
            "an alert named \(name) exists; delete it first or choose another name"
        case .sendTotalOutOfRange(let pushID, let field):
            "\(field) of push \(pushID) over all its send records would pass 10^15; each figure of a push is at most 10^15"
        }
    }
}
