import GRDB
import PushTallyCore

extension SQLiteStore: DeviceTimelineReader {
    /// The device's events after `cursor`, by the `events_by_device` index, keyed as ingest keys them.
    public func deviceTimeline(deviceID: String, after cursor: TimelineCursor, limit: Int) async throws -> DeviceTimelinePage {
        let query = Queries.SelectDeviceTimeline(keyedDevice: deviceHasher.hash(deviceID), after: cursor, rows: limit + 1)
        return DeviceTimelinePage(rows: try await read { db in try db.fetch(query) }, limit: limit)
    }
}
