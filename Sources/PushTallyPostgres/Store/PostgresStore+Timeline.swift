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
        return DeviceTimelinePage(rows: try rows.map(Self.entry), limit: limit)
    }

    private static func entry(_ row: PostgresRow) throws -> TimelineEntry {
        let cells = row.makeRandomAccess()
        var entry = TimelineEntry(
            row: try cells[0].decode(Int64.self), kind: try cells[1].decode(Int.self), pushID: try cells[2].decode(String.self),
            action: try cells[3].decode(String.self), eventTime: try cells[4].decode(Int64.self),
            receivedAt: try cells[5].decode(Int64.self), duplicate: try cells[6].decode(Bool.self),
            clientID: try cells[7].decode(String?.self), app: try cells[8].decode(String?.self),
            appVersion: try cells[9].decode(String?.self), osVersion: try cells[10].decode(String?.self),
            name: try cells[11].decode(String?.self), valueMicros: try cells[12].decode(Int64?.self),
            currency: try cells[13].decode(String?.self), attribution: try cells[14].decode(Int?.self),
            attributedPush: try cells[15].decode(String?.self), campaign: try cells[16].decode(String?.self),
            sentAt: try cells[17].decode(Int64?.self))
        entry.addReported(
            media: try cells[18].decode(String?.self), extensionMillis: try cells[19].decode(Int64?.self),
            permission: try cells[20].decode(String?.self))
        return entry
    }
}
