import GRDB
import PushTallyCore

extension SQLiteStore: ReportReader {
    /// Every push matching `filter`, registered or orphan, with counts from the rollups (never raw events).
    public func pushFigures(_ filter: ReportFilter) async throws -> [PushFigures] {
        try await read { db in try Self.pushFigures(filter, in: db) }
    }

    /// The campaign list's rows, summed as the rows are read (``CampaignListAssembly``).
    public func campaignRows(_ filter: ReportFilter, by grouping: ReportGrouping?) async throws -> [CampaignRow] {
        try await summedCampaignRows(filter, by: grouping) { assembly in
            try await read { db in
                var assembly = assembly
                try Self.readPushRows(filter, into: &assembly, in: db)
                return assembly
            }
        }
    }

    static func pushFigures(_ filter: ReportFilter, in db: Database) throws -> [PushFigures] {
        var assembly = PushFiguresAssembly(expectedPushes: filter.pushID == nil ? 1024 : 1)
        try readPushRows(filter, into: &assembly, in: db)
        return assembly.takeFigures(filter)
    }

    /// Feeds `assembly` the rows of the pushes `filter`'s scope selects, table by table (``PushRowSink``).
    static func readPushRows<Sink: PushRowSink>(_ filter: ReportFilter, into assembly: inout Sink, in db: Database) throws {
        let (scope, value) = PushScope(filter).clause(placeholder: "?")
        let arguments: StatementArguments = value.map { [$0] } ?? []
        // Columns are read by position through SQLite's C API (``RawColumns``): GRDB's by-name lookup scans
        // the column names for every value, and its generic decode per value showed in a report's profile.
        // Cached statements: compiling six statements per report (and GRDB's authorizer pass over each) showed
        // in its profile.
        func forEachRow(_ sql: String, _ body: (RawColumns) throws -> Void) throws {
            try RawColumns.forEachRow(db.cachedStatement(sql: sql), arguments: arguments, body)
        }
        try forEachRow(
            "SELECT push_id, campaign, title, sent_at, app, environment, \(SendAttributeColumns.names.joined(separator: ", ")) FROM pushes \(scope)"
        ) { row in
            assembly.registered(
                pushID: row.text(0), campaign: row.text(1), title: row.optionalText(2), sentAtMillis: row.optionalInt64(3),
                app: row.optionalText(4), environment: row.optionalText(5),
                attributes: SendAttributeColumns.attributes(
                    variant: row.optionalText(6), collapseID: row.optionalText(7), priority: row.optionalInt64(8),
                    pushType: row.optionalText(9), expiration: row.optionalInt64(10)))
        }
        // Sends by their own scan, in key order, rather than joined: the join cost most of this function's time.
        // One row per sender, summed by the assembly: SQLite's SUM ... GROUP BY took three times the plain scan.
        try forEachRow("SELECT push_id, targeted, sent FROM push_sends \(scope)") { row in
            assembly.sends(pushID: row.text(0), targeted: row.int64(1), sent: row.int64(2))
        }
        try forEachRow("SELECT push_id, reason, count FROM push_failures \(scope)") { row in
            assembly.failures(pushID: row.text(0), reason: row.text(1), count: row.int64(2))
        }
        try forEachRow("SELECT push_id, kind, action, total, duplicates, first_time, late FROM rollup_push \(scope)") { row in
            assembly.rollup(
                pushID: row.text(0), kind: EventKind(rawValue: Int(row.int64(1))) ?? .display, action: row.text(2),
                count: EventCount(total: row.int64(3), duplicates: row.int64(4)), late: row.int64(6), firstEvent: row.int64(5))
        }
        try TimingTable.forEachHistogram(in: "rollup_timing", scope: scope, arguments: arguments, db: db) { id, count in
            assembly.timing(pushID: id, count: count)
        }
        try forEachRow("SELECT push_id, measure, currency, count, value_micros FROM rollup_outcome \(scope)") { row in
            // Unattributed outcomes are kept under push id '' and belong to no push.
            let pushID = row.text(0)
            guard !pushID.isEmpty, let measure = OutcomeMeasure(rawValue: Int(row.int64(1))) else { return }
            assembly.outcome(pushID: pushID, measure: measure, currency: row.text(2), count: row.int64(3), valueMicros: row.int64(4))
        }
        try readMediaRows(filter, into: &assembly, in: db)
    }

    /// Pushes sharing an app and collapse id with those `filter` selects (``CollapsePeersQuery``).
    public func collapsePeers(_ filter: ReportFilter) async throws -> [CollapsePush] {
        let (sql, value) = CollapsePeersQuery.sql(PushScope(filter), placeholder: "?")
        return try await read { db in
            try Row.fetchAll(db, sql: sql, arguments: value.map { [$0] } ?? []).map { row in
                CollapsePush(pushID: row[0], app: row[1], collapseID: row[2], sentAtMillis: row[3], expirationMillis: row[4])
            }
        }
    }

    /// Sessions and conversions by credit whose 15-minute bucket falls in the range.
    public func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes {
        let range = OutcomeTimeRange(fromMillis: fromMillis, toMillis: toMillis)
        return try await read { db in
            var totals = Outcomes()
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT measure, currency, SUM(count), SUM(value_micros) FROM rollup_outcome_time
                    WHERE bucket >= ? AND bucket <= ? GROUP BY measure, currency
                    """,
                arguments: [range.firstBucket, range.lastBucket])
            while let row = try rows.next() {
                guard let measure = OutcomeMeasure(rawValue: row[0]) else { continue }
                totals.add(measure: measure, currency: row[1], count: row[2], valueMicros: row[3])
            }
            return totals
        }
    }

    /// 15-minute rollup counts of the pushes matching `filter`, whose `from`/`to` bound the event time here.
    public func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] {
        let scope = RollupScope(filter, bucketRange: true)
        return try await read { db in
            try Self.rows(
                "SELECT b.bucket, b.kind, b.action, SUM(b.total), SUM(b.duplicates) FROM \(scope.bucketTable) b",
                scope, groupBy: "b.bucket, b.kind, b.action", in: db
            ).map { row in
                BucketCount(
                    bucket: row[0], kind: EventKind(rawValue: row[1]) ?? .display, action: row[2],
                    count: EventCount(total: row[3], duplicates: row[4]))
            }
        }
    }

    /// Receipts and actions per app version or OS version, over the pushes `filter` selects.
    public func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] {
        let versionScope = RollupScope(filter).requiring("b.dimension =", .integer(Int64(dimension.rawValue)))
        return try await read { db in
            let named = try Self.rows(
                "SELECT b.version, b.kind, b.action, SUM(b.total), SUM(b.duplicates) FROM rollup_version b",
                versionScope, groupBy: "b.version, b.kind, b.action", in: db
            ).map { row in
                VersionCount(
                    version: row[0], kind: EventKind(rawValue: row[1]) ?? .display, action: row[2],
                    count: EventCount(total: row[3], duplicates: row[4]))
            }
            let totals = try Self.rows(
                "SELECT b.kind, b.action, SUM(b.total), SUM(b.duplicates) FROM rollup_push b",
                RollupScope(filter), groupBy: "b.kind, b.action", in: db
            ).map { row in
                (kind: EventKind(rawValue: row[0]) ?? .display, action: row[1] as String, count: EventCount(total: row[2], duplicates: row[3]))
            }
            return VersionCount.completing(named, pushTotals: totals)
        }
    }

    /// Rows of `select` (over a rollup table aliased `b`) narrowed by `scope` and grouped.
    private static func rows(_ select: String, _ scope: RollupScope, groupBy: String, in db: Database) throws -> [Row] {
        let arguments = scope.conditions.map { condition -> any DatabaseValueConvertible in
            switch condition.value {
            case .text(let text): text
            case .integer(let integer): integer
            }
        }
        return try Row.fetchAll(
            db, sql: "\(select) \(scope.sql { _ in "?" }) GROUP BY \(groupBy)", arguments: StatementArguments(arguments))
    }
}
