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
            ).map { row in
                var entry = TimelineEntry(
                    row: row[0], kind: row[1], pushID: row[2], action: row[3], eventTime: row[4], receivedAt: row[5],
                    duplicate: row[6], clientID: row[7], app: row[8], appVersion: row[9], osVersion: row[10], name: row[11],
                    valueMicros: row[12], currency: row[13], attribution: row[14], attributedPush: row[15], campaign: row[16],
                    sentAt: row[17])
                entry.addReported(media: row[18], extensionMillis: row[19], permission: row[20])
                return entry
            }
        }
        return DeviceTimelinePage(rows: rows, limit: limit)
    }
}
