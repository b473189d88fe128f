import GRDB
import PushTallyCore

extension SQLiteStore: DeviceTimelineReader {
    /// The device's events after `cursor`, by the `events_by_device` index, keyed as ingest keys them.
    public func deviceTimeline(deviceID: String, after cursor: TimelineCursor, limit: Int) async throws -> DeviceTimelinePage {
        let keyed = deviceHasher.hash(deviceID)
        let rows = try await read { db in
            try Row.fetchAll(
                db, sql: TimelineQuery.sql(dialect: .sqlite),
                arguments: [keyed, cursor.eventTimeMillis, cursor.eventTimeMillis, cursor.row, limit + 1]
            ).map { try TimelineQuery.entry(FetchedRow(row: $0)) }
        }
        return DeviceTimelinePage(rows: rows, limit: limit)
    }
}
