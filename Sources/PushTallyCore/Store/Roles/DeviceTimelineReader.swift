/// Reads one device's raw events for support: what happened on a phone, in order.
public protocol DeviceTimelineReader: Sendable {
    /// Up to `limit` of the device's events after `cursor`, ordered by event time, then row id, by the
    /// `events_by_device` index. `deviceID` is the raw id: it is keyed here, as ingest keys it.
    /// - Throws: ``StoreError/misconfigured(_:)`` when the store was opened without the device secret.
    func deviceTimeline(deviceID: String, after cursor: TimelineCursor, limit: Int) async throws -> DeviceTimelinePage
}
