/// What one post of delivery lines does, planned once for both engines from the devices' stored states: each
/// device's new state, and the counts the push's delivery records gain. A line whose push the device already has
/// in its sends is a repeat and changes nothing, so posting the same lines twice leaves the same state.
package struct DeliveryPlan: Sendable {
    /// The devices the post changed, by key.
    package private(set) var states: [String: DeviceState] = [:]
    /// The counts each platform's delivery record of the push gains (``DeliveryRecords``).
    package private(set) var counts: [String: SendCounts] = [:]
    package private(set) var summary = DeliverySummary()
    /// The devices this post turned `rejected` (their latest send refused, where it was not before), by key.
    package private(set) var rejected: [String: DeliveryLine] = [:]

    /// The devices the post turned rejected, in key order, with the line that did.
    package var rejectedDevices: [(state: DeviceState, line: DeliveryLine)] {
        rejected.keys.sorted().compactMap { key in states[key].map { ($0, rejected[key]!) } }
    }

    /// Refuses deliveries of a push sent before the window devices keep their sends for: a repeat of such a line
    /// could not be known, so it would count twice.
    package static func checkWindow(pushID: String, sentMillis: Int64, nowMillis: Int64) throws(FieldError) {
        let keptSince = nowMillis - Int64(DeviceSends.keptDays) * 86_400_000
        guard sentMillis >= keptSince else {
            throw FieldError(
                "too_old",
                "push \(pushID) was sent at \(Timestamp.iso8601(millis: sentMillis)), more than \(DeviceSends.keptDays) days ago: devices keep their sends that long, so its deliveries can no longer be told from repeats",
                field: "push_id")
        }
    }

    /// The devices of `keys` with no stored state, whose client activity a store reads from raw events first.
    package static func newDevices(_ keys: [String], stored: [String: DeviceState]) -> [String] {
        Array(Set(keys.filter { stored[$0] == nil })).sorted()
    }

    /// The counts each platform's delivery record stands at after the post: `stored` (the record's counts before,
    /// ``Queries/SelectSendRecord``) plus what the post adds.
    package func records(stored: (String) throws -> SendCounts) rethrows -> [(batchID: String, counts: SendCounts)] {
        try counts.keys.sorted().map { platform in
            let added = counts[platform]!
            var record = try stored(DeliveryRecords.batchID(platform: platform))
            record.platform = platform
            record.targeted += added.targeted
            record.sent += added.sent
            for (reason, count) in added.failed { record.failed[reason, default: 0] += count }
            return (DeliveryRecords.batchID(platform: platform), record)
        }
    }

    /// - Parameters:
    ///   - stored: the states the store holds for the lines' devices, by key.
    ///   - sentMillis: the push's `sent_at`, or now when it has none: the send's time.
    ///   - keys: each line's device key, in the lines' order.
    ///   - activity: what raw events say of the devices with no stored state, by key.
    package init(
        pushID: String, app: String, sentMillis: Int64, nowMillis: Int64, lines: [DeliveryLine], keys: [String],
        stored: [String: DeviceState], activity: [String: DeviceActivity] = [:]
    ) {
        let keptSince = nowMillis - Int64(DeviceSends.keptDays) * 86_400_000
        for (line, key) in zip(lines, keys) {
            summary.lines += 1
            var state = states[key] ?? stored[key] ?? {
                var new = DeviceState(deviceKey: key, app: app, platform: line.platform)
                if let known = activity[key] { new.start(from: known) }
                return new
            }()
            guard !state.sends.contains(pushID) else {
                summary.repeated += 1
                continue
            }
            summary.stored += 1
            let isLatest = sentMillis >= (state.sends.lastMillis ?? .min)
            state.sends.add(pushID, sentMillis: sentMillis, keptSinceMillis: keptSince)
            if isLatest {
                let wasRejected = state.lastOutcome.map { $0 != DeliveryLine.accepted } ?? false
                if line.isAccepted || wasRejected { rejected[key] = nil } else { rejected[key] = line }
                state.app = app
                state.platform = line.platform
                state.lastOutcome = line.outcome
                state.lastOutcomeMillis = line.timestampMillis ?? sentMillis
                if let recipient = line.recipient { state.recipient = recipient }
            }
            states[key] = state
            var record = counts[line.platform] ?? SendCounts(platform: line.platform)
            record.targeted += 1
            if line.isAccepted { record.sent += 1 } else { record.failed[line.outcome, default: 0] += 1 }
            counts[line.platform] = record
            if line.isAccepted { summary.accepted += 1 } else { summary.refused += 1 }
        }
    }
}

/// What a post of delivery lines did: `lines` read, of which `stored` were new and `repeated` named a push the
/// device already had; of the stored, `accepted` and `refused` by the provider.
public struct DeliverySummary: Sendable, Hashable, Codable {
    public var lines = 0
    public var stored = 0
    public var repeated = 0
    public var accepted = 0
    public var refused = 0

    public init(lines: Int = 0, stored: Int = 0, repeated: Int = 0, accepted: Int = 0, refused: Int = 0) {
        self.lines = lines
        self.stored = stored
        self.repeated = repeated
        self.accepted = accepted
        self.refused = refused
    }

    package mutating func add(_ other: DeliverySummary) {
        lines += other.lines
        stored += other.stored
        repeated += other.repeated
        accepted += other.accepted
        refused += other.refused
    }
}

/// A push's per-device deliveries are send records of their own, one per platform (batch `deliveries:<platform>`),
/// beside what the backend posts as counts. A push with any is counted from them alone: its `PUT` totals and
/// `sends` batches are kept but not counted, so a backend that posts both counts no device twice.
package enum DeliveryRecords {
    /// The batch id prefix, refused in a `sends` batch.
    package static let prefix = "deliveries:"

    package static func batchID(platform: String) -> String { prefix + platform }

    /// The condition a read of `table` (`push_sends`, `push_failures` or `push_send_platforms`) keeps its counted
    /// records by. The prefix is compared byte for byte (SQLite's `LIKE` ignores ASCII case, PostgreSQL's does not).
    package static func counted(_ table: String) -> String {
        """
        (\(isDeliveries("\(table).batch_id")) OR NOT EXISTS (
            SELECT 1 FROM push_sends deliveries WHERE deliveries.push_id = \(table).push_id AND \(isDeliveries("deliveries.batch_id"))))
        """
    }

    private static func isDeliveries(_ column: String) -> String {
        "substr(\(column), 1, \(prefix.utf8.count)) = '\(prefix)'"
    }
}
