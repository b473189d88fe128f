import PostgresNIO
import PushTallyCore

extension PostgresStore: DeviceTimelineReader {
    /// The device's events after `cursor`, by the `events_by_device` index, keyed as ingest keys them.
    public func deviceTimeline(deviceID: String, after cursor: TimelineCursor, limit: Int) async throws -> DeviceTimelinePage {
        guard let deviceHasher else { throw StoreError.misconfigured("the timeline needs the device secret (--device-secret)") }
        var binds = PostgresBindings()
        binds.append(deviceHasher.hash(deviceID))
        binds.append(cursor.eventTimeMillis)
        binds.append(cursor.row)
        binds.append(Int64(limit + 1))
        let rows = try await query(PostgresQuery(unsafeSQL: TimelineQuery.sql(dialect: .postgres), binds: binds))
        return DeviceTimelinePage(rows: try rows.map { try TimelineQuery.entry(PostgresReportRow($0)) }, limit: limit)
    }
}
