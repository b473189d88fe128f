import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// Every push matching `filter`, registered or orphan, with counts from the rollups (never raw events):
    /// the SQLite store's queries, table by table, so both assemble the same figures.
    public func pushFigures(_ filter: ReportFilter = ReportFilter()) async throws -> [PushFigures] {
        let scope: (String, PostgresBindings) =
            if let pushID = filter.pushID {
                ("WHERE push_id = $1", binds(pushID))
            } else if let campaign = filter.campaign {
                ("WHERE push_id IN (SELECT push_id FROM pushes WHERE campaign = $1)", binds(campaign))
            } else {
                ("", PostgresBindings())
            }
        @Sendable func scoped(_ sql: String) -> PostgresQuery {
            PostgresQuery(unsafeSQL: sql.replacingOccurrences(of: "{scope}", with: scope.0), binds: scope.1)
        }
        // One snapshot for all five reads, as SQLite reads them in one transaction: a commit between two of
        // them could otherwise show a histogram without its displays.
        return try await readSnapshot { read in
            var pushes: [String: PushFigures] = [:]
            for (id, campaign, title, sentAt, app, environment) in try await read(
                scoped("SELECT push_id, campaign, title, sent_at, app, environment FROM pushes {scope}")
            ).decode((String, String, String?, Int64?, String?, String?).self) {
                var funnel = Funnel()
                funnel.pushes = 1
                pushes[id] = PushFigures(
                    pushID: id, campaign: campaign, title: title, sentAtMillis: sentAt, app: app, environment: environment,
                    firstEventMillis: nil, funnel: funnel)
            }
            for (id, targeted, sent) in try await read(
                scoped("SELECT push_id, SUM(targeted)::bigint, SUM(sent)::bigint FROM push_sends {scope} GROUP BY push_id")
            ).decode((String, Int64, Int64).self) {
                pushes[id]?.setSends(targeted: targeted, sent: sent)
            }
            for (id, reason, count) in try await read(
                scoped("SELECT push_id, reason, SUM(count)::bigint FROM push_failures {scope} GROUP BY push_id, reason")
            ).decode((String, String, Int64).self) {
                pushes[id]?.funnel.failedByReason[reason] = count
            }
            for (id, kind, action, total, duplicates, first, late) in try await read(
                scoped("SELECT push_id, kind, action, total, duplicates, first_time, late FROM rollup_push {scope}")
            ).decode((String, Int, String, Int64, Int64, Int64, Int64).self) {
                pushes[id, default: PushFigures(orphan: id)].add(
                    EventCount(total: total, duplicates: duplicates), kind: EventKind(rawValue: kind) ?? .display,
                    action: action, late: late, firstEvent: first)
            }
            let columns = TimingTable.columns.joined(separator: ", ")
            for (id, counts) in try await read(
                scoped("SELECT push_id, ARRAY[\(columns)] FROM rollup_timing {scope}")
            ).decode((String, [Int64]).self) {
                pushes[id]?.funnel.latency.add(LatencyHistogram(counts: counts))
            }
            return pushes.keys.sorted().compactMap { id in pushes[id].flatMap { filter.includes($0) ? $0 : nil } }
        }
    }

    /// SQL narrowing rollup rows (alias `b`) to the pushes `filter` selects, as the SQLite store's `pushScope`.
    private static func pushScope(_ filter: ReportFilter, into sql: inout SQLBuilder) -> (join: String, conditions: [String]) {
        var conditions: [String] = []
        var join = ""
        if filter.campaign != nil || filter.app != nil || filter.environment != nil {
            join = "JOIN pushes p ON p.push_id = b.push_id"
            for (column, value) in [("p.campaign", filter.campaign), ("p.app", filter.app), ("p.environment", filter.environment)] {
                if let value { conditions.append("\(column) = \(sql.bind(value))") }
            }
        }
        if let pushID = filter.pushID { conditions.append("b.push_id = \(sql.bind(pushID))") }
        return (join, conditions)
    }

    private static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    /// 15-minute rollup counts of the pushes matching `filter`, whose `from`/`to` bound the event time here.
    public func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] {
        var sql = SQLBuilder()
        var (join, conditions) = Self.pushScope(filter, into: &sql)
        if let from = filter.fromMillis { conditions.append("b.bucket >= \(sql.bind(EventTime.bucket(ofMillis: from)))") }
        if let to = filter.toMillis { conditions.append("b.bucket <= \(sql.bind(EventTime.bucket(ofMillis: to - 1)))") }
        sql.append("""
            SELECT b.bucket, b.kind, b.action, SUM(b.total)::bigint, SUM(b.duplicates)::bigint
            FROM rollup_bucket b \(join) \(Self.whereClause(conditions))
            GROUP BY b.bucket, b.kind, b.action
            """)
        var counts: [BucketCount] = []
        for (bucket, kind, action, total, duplicates) in try await query(sql.query).decode(
            (Int64, Int, String, Int64, Int64).self)
        {
            counts.append(BucketCount(
                bucket: bucket, kind: EventKind(rawValue: kind) ?? .display, action: action,
                count: EventCount(total: total, duplicates: duplicates)))
        }
        return counts
    }

    /// Receipts and actions per app or OS version over the pushes `filter` selects; events naming no version
    /// are derived from the push rollups, as in the SQLite store.
    public func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] {
        var sql = SQLBuilder()
        var (join, conditions) = Self.pushScope(filter, into: &sql)
        conditions.append("b.dimension = \(sql.bind(Int64(dimension.rawValue)))")
        sql.append("""
            SELECT b.version, b.kind, b.action, SUM(b.total)::bigint, SUM(b.duplicates)::bigint
            FROM rollup_version b \(join) \(Self.whereClause(conditions))
            GROUP BY b.version, b.kind, b.action
            """)
        let versionQuery = sql.query
        return try await readSnapshot { read in
            var counts: [VersionCount] = []
            for (version, kind, action, total, duplicates) in try await read(versionQuery).decode(
                (String, Int, String, Int64, Int64).self)
            {
                counts.append(VersionCount(
                    version: version, kind: EventKind(rawValue: kind) ?? .display, action: action,
                    count: EventCount(total: total, duplicates: duplicates)))
            }
            var totals = SQLBuilder()
            let (pushJoin, pushConditions) = Self.pushScope(filter, into: &totals)
            totals.append("""
                SELECT b.kind, b.action, SUM(b.total)::bigint, SUM(b.duplicates)::bigint FROM rollup_push b \(pushJoin)
                \(Self.whereClause(pushConditions)) GROUP BY b.kind, b.action
                """)
            for (rawKind, action, total, duplicates) in try await read(totals.query).decode((Int, String, Int64, Int64).self) {
                let kind = EventKind(rawValue: rawKind) ?? .display
                let known = counts.filter { $0.kind == kind && $0.action == action }
                let unknownTotal = total - known.reduce(0) { $0 + $1.count.total }
                let unknownDuplicates = duplicates - known.reduce(0) { $0 + $1.count.duplicates }
                if unknownTotal > 0 {
                    counts.append(VersionCount(
                        version: "", kind: kind, action: action, count: EventCount(total: unknownTotal, duplicates: unknownDuplicates)))
                }
            }
            return counts
        }
    }
}
