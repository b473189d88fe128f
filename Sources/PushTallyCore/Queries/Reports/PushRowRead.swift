/// The tables a push's figures are read from, in the order a ``PushRowSink`` is fed them: registrations,
/// first events for a sink that asks for them, send totals, failures, rollups, timing, outcomes, FCM, then
/// platform counts for a sink that splits by them.
package enum PushRowRead: CaseIterable, Sendable {
    case registrations, firstEvents, sends, failures, rollups, timing, outcomes, fcm, fcmOtherPlatformDisplays, platforms, platformSends,
        platformFailures

    /// The reads `sink` takes: first events and platform counts only when it asks for them.
    package static func reads(for sink: some PushRowSink) -> [PushRowRead] {
        allCases.filter { read in
            switch read {
            case .firstEvents: sink.readsFirstEvents
            case .platforms, .platformSends, .platformFailures: sink.readsPlatforms
            default: true
            }
        }
    }

    /// `rollup_push`'s value columns, read in declared order (``RollupTable/values``): a column declared there is
    /// read and handed to the sink with no change to the read.
    @usableFromInline
    static let rollupFields = RollupTable.push.deltaFields

    /// This read of the pushes `scope` selects, rendered for `dialect`.
    package func statement(_ dialect: SQLDialect, _ scope: PushScope) -> RenderedQuery {
        let sum = dialect.sumsPushRows ? dialect.sum : { $0 }
        switch self {
        case .registrations:
            return dialect.pushRows(
                "SELECT push_id, campaign, title, sent_at, app, environment, \(SendAttributeColumns.names.joined(separator: ", ")) FROM pushes",
                scope, key: "pushes.push_id")
        case .sends:
            // Sends by their own scan, in key order, rather than joined: the join cost most of a report's time.
            return dialect.pushRows(
                "SELECT push_id, \(sum("targeted")), \(sum("sent")) FROM push_sends", scope, key: "push_sends.push_id",
                where: DeliveryRecords.counted("push_sends"), groupBy: "push_id")
        case .failures:
            return dialect.pushRows(
                "SELECT push_id, reason, \(sum("count")) FROM push_failures", scope, key: "push_failures.push_id",
                where: DeliveryRecords.counted("push_failures"), groupBy: "push_id, reason")
        case .firstEvents:
            return dialect.pushRows("SELECT push_id, MIN(first_time) FROM rollup_push", scope, key: "rollup_push.push_id", groupBy: "push_id", alwaysGrouped: true)
        case .rollups:
            let values = RollupTable.push.values.map(\.name).joined(separator: ", ")
            return dialect.pushRows("SELECT push_id, kind, action, \(values) FROM rollup_push", scope, key: "rollup_push.push_id")
        case .timing:
            return dialect.pushRows("SELECT push_id, \(dialect.histogram(TimingColumns.names)) FROM rollup_timing", scope, key: "rollup_timing.push_id")
        case .outcomes:
            return dialect.pushRows(
                "SELECT push_id, measure, currency, \(sum("count")), \(sum("value_micros")), \(sum("value_units")) FROM rollup_outcome",
                scope, key: "rollup_outcome.push_id",
                groupBy: "push_id, measure, currency")
        case .fcm:
            return dialect.pushRows("SELECT push_id, platform, event, count FROM rollup_fcm", scope, key: "rollup_fcm.push_id")
        case .fcmOtherPlatformDisplays:
            // The displays, of pushes FCM delivered, on platforms it delivered none of them to: not what its device
            // deliveries count, so `displayed_of_delivered` leaves them out (displays that named no platform
            // stay in). Platforms compare in lower case, as FCM's `sdk_platform` is kept.
            let delivered = "SELECT 1 FROM rollup_fcm f WHERE f.push_id = rollup_version.push_id AND f.event = '\(FCMEvent.delivered.rawValue)'"
            return dialect.pushRows(
                "SELECT push_id, version, \(sum("total")), \(sum("duplicates")) FROM rollup_version", scope, key: "rollup_version.push_id",
                where: """
                    dimension = \(VersionDimension.platform.rawValue) AND kind = \(EventKind.display.rawValue) AND EXISTS (\(delivered)) \
                    AND NOT EXISTS (\(delivered) AND LOWER(f.platform) = LOWER(rollup_version.version))
                    """,
                groupBy: "push_id, version")
        case .platformSends:
            // Joined USING the key, so the scope's bare `push_id` names the one merged column on both engines.
            return dialect.pushRows(
                "SELECT push_id, platform, \(sum("targeted")), \(sum("sent")) FROM \(SendPlatformSchema.table) JOIN push_sends USING (push_id, batch_id)",
                scope, key: "\(SendPlatformSchema.table).push_id", where: DeliveryRecords.counted(SendPlatformSchema.table),
                groupBy: "push_id, platform")
        case .platformFailures:
            return dialect.pushRows(
                "SELECT push_id, platform, reason, \(sum("count")) FROM \(SendPlatformSchema.table) JOIN push_failures USING (push_id, batch_id)",
                scope, key: "\(SendPlatformSchema.table).push_id", where: DeliveryRecords.counted(SendPlatformSchema.table),
                groupBy: "push_id, platform, reason")
        case .platforms:
            return dialect.pushRows(
                "SELECT push_id, version, kind, action, \(sum("total")), \(sum("duplicates")) FROM rollup_version", scope, key: "rollup_version.push_id",
                where: "dimension = \(VersionDimension.platform.rawValue)", groupBy: "push_id, version, kind, action")
        }
    }

    /// Feeds `sink` one row of this read.
    @inlinable
    package func feed<Row: ReportRow, Sink: PushRowSink>(_ row: Row, into sink: inout Sink) throws {
        switch self {
        case .registrations:
            sink.registered(
                pushID: try row.text(0), campaign: try row.text(1), title: try row.optionalText(2),
                sentAtMillis: try row.optionalInt64(3), app: try row.optionalText(4), environment: try row.optionalText(5),
                attributes: SendAttributeColumns.attributes(
                    variant: try row.optionalText(6), collapseID: try row.optionalText(7), priority: try row.optionalInt64(8),
                    pushType: try row.optionalText(9), expiration: try row.optionalInt64(10)))
        case .sends:
            sink.sends(pushID: try row.text(0), targeted: try row.int64(1), sent: try row.int64(2))
        case .failures:
            sink.failures(pushID: try row.text(0), reason: try row.text(1), count: try row.int64(2))
        case .firstEvents:
            sink.firstEvent(pushID: try row.text(0), millis: try row.int64(1))
        case .rollups:
            var values = RollupAccumulator.Delta()
            for (offset, field) in Self.rollupFields.enumerated() { values[field] = try row.int64(3 + offset) }
            sink.rollup(
                pushID: try row.text(0), kind: EventKind(rawValue: Int(try row.int64(1))) ?? .display, action: try row.text(2),
                values: values)
        case .timing:
            let pushID = try row.text(0)
            try row.withHistogram(at: 1) { count in sink.timing(pushID: pushID, count: count) }
        case .outcomes:
            // Unattributed outcomes are kept under push id '' and belong to no push.
            let pushID = try row.text(0)
            guard !pushID.isEmpty, let measure = OutcomeMeasure(rawValue: Int(try row.int64(1))) else { return }
            sink.outcome(
                pushID: pushID, measure: measure, currency: try row.text(2), count: try row.int64(3),
                value: try ReportRowDecoding.money(units: try row.int64(5), micros: try row.int64(4)))
        case .fcm:
            // Rows without a label are kept under push id '' and belong to no push.
            let pushID = try row.text(0)
            guard !pushID.isEmpty else { return }
            sink.fcm(pushID: pushID, platform: try row.text(1), event: try row.text(2), count: try row.int64(3))
        case .fcmOtherPlatformDisplays:
            sink.fcmOtherPlatformDisplays(
                pushID: try row.text(0), platform: try row.text(1), count: EventCount(total: try row.int64(2), duplicates: try row.int64(3)))
        case .platformSends:
            sink.platformSends(pushID: try row.text(0), platform: try row.text(1), targeted: try row.int64(2), sent: try row.int64(3))
        case .platformFailures:
            sink.platformFailures(pushID: try row.text(0), platform: try row.text(1), reason: try row.text(2), count: try row.int64(3))
        case .platforms:
            sink.platform(
                pushID: try row.text(0), platform: try row.text(1), kind: EventKind(rawValue: Int(try row.int64(2))) ?? .display,
                action: try row.text(3), count: EventCount(total: try row.int64(4), duplicates: try row.int64(5)))
        }
    }
}
