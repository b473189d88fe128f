import GRDB
import PushTallyCore

/// Keeps each device's client times in `device_states` in the transaction that stores its raw events, whatever
/// path stores them (ingest and import both go through ``RawRows``), as PostgreSQL's statement trigger does.
///
/// Not a row trigger on `events`: SQLite runs a row trigger's program for every row inserted, its `WHEN` clause
/// inside it, so every receipt naming no device (the extension's classic `push_id` form) paid a frame of its own,
/// about 0.8 µs a row beside 2 µs for the row itself (docs/PERFORMANCE.md). Here only events naming a device
/// run a statement, in the order they were stored, so a device's later events see its earlier ones.
enum DeviceClientTimes {
    /// Marks each of `events` that names a device on that device's row, where it has one (a device the backend
    /// posted no delivery for has none), in the caller's transaction.
    static func note(_ events: [StoredEvent], in db: Database) throws {
        var statement: BoundStatement?
        for index in events.indices where events[index].deviceID != nil {
            let update = try statement ?? BoundStatement(db, sql: Queries.NoteDeviceActivity.sql)
            statement = update
            update.bind(Queries.NoteDeviceActivity.columns, events[index], duplicate: false, from: 1)
            try update.execute()
        }
    }
}
