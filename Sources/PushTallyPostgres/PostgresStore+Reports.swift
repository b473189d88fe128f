import PostgresNIO
import PushTallyCore

extension PostgresStore: ReportReader {
    /// Every push matching `filter`, registered or orphan, with counts from the rollups (never raw events):
    /// the SQLite store's queries, table by table, so both assemble the same figures.
    public func pushFigures(_ filter: ReportFilter) async throws -> [PushFigures] {
        var assembly = try await readPushRows(filter, into: PushFiguresAssembly(expectedPushes: filter.pushID == nil ? 1024 : 1))
        return assembly.takeFigures(filter)
    }

    /// The campaign list's rows, summed as the rows are read (``CampaignListAssembly``).
    public func campaignRows(_ filter: ReportFilter, by grouping: ReportGrouping?) async throws -> [CampaignRow] {
        try await summedCampaignRows(filter, by: grouping) { assembly in try await readPushRows(filter, into: assembly) }
    }

    /// `sink` fed the rows of the pushes `filter`'s scope selects, table by table (``PushRowSink``).
    private func readPushRows<Sink: PushRowSink & Sendable>(_ filter: ReportFilter, into sink: Sink) async throws -> Sink {
        let (scope, value) = PushScope(filter).clause(placeholder: "$1")
        @Sendable func scoped(_ sql: String) -> PostgresQuery {
            var bindings = PostgresBindings()
            if let value { bindings.append(value) }
            return PostgresQuery(unsafeSQL: sql + " " + scope, binds: bindings)
        }
        @Sendable func grouped(_ sql: String, by columns: String) -> PostgresQuery {
            var query = scoped(sql)
            query.sql += " GROUP BY \(columns)"
            return query
        }
        // One snapshot for all five reads, as SQLite reads them in one transaction: a commit between two of
        // them could otherwise show a histogram without its displays.
        return try await readSnapshot { read in
            var assembly = sink
            let attributeColumns = SendAttributeColumns.names.joined(separator: ", ")
            for (id, campaign, title, sentAt, app, environment, variant, collapseID, priority, pushType, expiration) in try await read(
                scoped("SELECT push_id, campaign, title, sent_at, app, environment, \(attributeColumns) FROM pushes")
            ).decode((String, String, String?, Int64?, String?, String?, String?, String?, Int64?, String?, Int64?).self) {
                assembly.registered(
                    pushID: id, campaign: campaign, title: title, sentAtMillis: sentAt, app: app, environment: environment,
                    attributes: SendAttributeColumns.attributes(
                        variant: variant, collapseID: collapseID, priority: priority, pushType: pushType, expiration: expiration))
            }
            for (id, targeted, sent) in try await read(
                grouped("SELECT push_id, SUM(targeted)::bigint, SUM(sent)::bigint FROM push_sends", by: "push_id")
            ).decode((String, Int64, Int64).self) {
                assembly.sends(pushID: id, targeted: targeted, sent: sent)
            }
            for (id, reason, count) in try await read(
                grouped("SELECT push_id, reason, SUM(count)::bigint FROM push_failures", by: "push_id, reason")
            ).decode((String, String, Int64).self) {
                assembly.failures(pushID: id, reason: reason, count: count)
            }
            for (id, kind, action, total, duplicates, first, late) in try await read(
                scoped("SELECT push_id, kind, action, total, duplicates, first_time, late FROM rollup_push")
            ).decode((String, Int, String, Int64, Int64, Int64, Int64).self) {
                assembly.rollup(
                    pushID: id, kind: EventKind(rawValue: kind) ?? .display, action: action,
                    count: EventCount(total: total, duplicates: duplicates), late: late, firstEvent: first)
            }
            let columns = TimingColumns.names.joined(separator: ", ")
            for (id, counts) in try await read(
                scoped("SELECT push_id, ARRAY[\(columns)] FROM rollup_timing")
            ).decode((String, [Int64]).self) {
                assembly.timing(pushID: id, histogram: LatencyHistogram(counts: counts))
            }
            for (id, measure, currency, count, value) in try await read(
                grouped(
                    "SELECT push_id, measure, currency, SUM(count)::bigint, SUM(value_micros)::bigint FROM rollup_outcome",
                    by: "push_id, measure, currency")
            ).decode((String, Int, String, Int64, Int64).self) {
                // Unattributed outcomes are kept under push id '' and belong to no push.
                guard !id.isEmpty, let measure = OutcomeMeasure(rawValue: measure) else { continue }
                assembly.outcome(pushID: id, measure: measure, currency: currency, count: count, valueMicros: value)
            }
            try await Self.readMediaRows(filter, into: &assembly, read: read)
            return assembly
        }
    }

    /// Pushes sharing an app and collapse id with those `filter` selects (``CollapsePeersQuery``).
    public func collapsePeers(_ filter: ReportFilter) async throws -> [CollapsePush] {
        let (sql, value) = CollapsePeersQuery.sql(PushScope(filter), placeholder: "$1")
        var bindings = PostgresBindings()
        if let value { bindings.append(value) }
        return try await query(PostgresQuery(unsafeSQL: sql, binds: bindings))
            .decode((String, String, String, Int64, Int64?).self)
            .map { id, app, collapseID, sentAt, expiration in
                CollapsePush(pushID: id, app: app, collapseID: collapseID, sentAtMillis: sentAt, expirationMillis: expiration)
            }
    }

    /// Sessions and conversions by credit whose 15-minute bucket falls in the range.
    public func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes {
        let range = OutcomeTimeRange(fromMillis: fromMillis, toMillis: toMillis)
        let query: PostgresQuery = """
            SELECT measure, currency, SUM(count)::bigint, SUM(value_micros)::bigint FROM rollup_outcome_time
            WHERE bucket >= \(range.firstBucket) AND bucket <= \(range.lastBucket) GROUP BY measure, currency
            """
        return try await readSnapshot { read in
            var totals = Outcomes()
            for (measure, currency, count, value) in try await read(query).decode((Int, String, Int64, Int64).self) {
                guard let measure = OutcomeMeasure(rawValue: measure) else { continue }
                totals.add(measure: measure, currency: currency, count: count, valueMicros: value)
            }
            return totals
        }
    }

    /// 15-minute rollup counts of the pushes matching `filter`, whose `from`/`to` bound the event time here.
    public func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] {
        let scope = RollupScope(filter, bucketRange: true)
        let query = Self.scoped(
            "SELECT b.bucket, b.kind, b.action, SUM(b.total)::bigint, SUM(b.duplicates)::bigint FROM \(scope.bucketTable) b",
            scope, groupBy: "b.bucket, b.kind, b.action")
        return try await self.query(query).decode((Int64, Int, String, Int64, Int64).self).map { bucket, kind, action, total, duplicates in
            BucketCount(
                bucket: bucket, kind: EventKind(rawValue: kind) ?? .display, action: action,
                count: EventCount(total: total, duplicates: duplicates))
        }
    }

    /// Receipts and actions per app or OS version over the pushes `filter` selects (``VersionCount/completing(_:pushTotals:)``).
    public func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] {
        let versionScope = RollupScope(filter).requiring("b.dimension =", .integer(Int64(dimension.rawValue)))
        let versionQuery = Self.scoped(
            "SELECT b.version, b.kind, b.action, SUM(b.total)::bigint, SUM(b.duplicates)::bigint FROM rollup_version b",
            versionScope, groupBy: "b.version, b.kind, b.action")
        let totalsQuery = Self.scoped(
            "SELECT b.kind, b.action, SUM(b.total)::bigint, SUM(b.duplicates)::bigint FROM rollup_push b",
            RollupScope(filter), groupBy: "b.kind, b.action")
        return try await readSnapshot { read in
            let named = try await read(versionQuery).decode((String, Int, String, Int64, Int64).self).map {
                version, kind, action, total, duplicates in
                VersionCount(
                    version: version, kind: EventKind(rawValue: kind) ?? .display, action: action,
                    count: EventCount(total: total, duplicates: duplicates))
            }
            let totals = try await read(totalsQuery).decode((Int, String, Int64, Int64).self).map { kind, action, total, duplicates in
                (kind: EventKind(rawValue: kind) ?? .display, action: action, count: EventCount(total: total, duplicates: duplicates))
            }
            return VersionCount.completing(named, pushTotals: totals)
        }
    }

    /// `select` over a rollup table aliased `b`, narrowed by `scope` (values bound as `$1`, `$2`…) and grouped.
    private static func scoped(_ select: String, _ scope: RollupScope, groupBy: String) -> PostgresQuery {
        var bindings = PostgresBindings()
        for condition in scope.conditions {
            switch condition.value {
            case .text(let text): bindings.append(text)
            case .integer(let integer): bindings.append(integer)
            }
        }
        return PostgresQuery(unsafeSQL: "\(select) \(scope.sql { "$\($0 + 1)" }) GROUP BY \(groupBy)", binds: bindings)
    }
}
