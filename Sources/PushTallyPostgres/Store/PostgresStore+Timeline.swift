import PostgresNIO
import PushTallyCore

extension PostgresStore: DeviceTimelineReader {
    /// The device's events after `cursor`, by the `events_by_device` index, keyed as ingest keys them.
    public func deviceTimeline(deviceID: String, after cursor: TimelineCursor, limit: Int) async throws -> DeviceTimelinePage {
        guard let deviceHasher else { throw StoreError.misconfigured("the timeline needs the device secret (--device-secret)") }
        let query = Queries.SelectDeviceTimeline(keyedDevice: deviceHasher.hash(deviceID), after: cursor, rows: limit + 1)
        return DeviceTimelinePage(rows: try await fetch(query), limit: limit)
    }
}
