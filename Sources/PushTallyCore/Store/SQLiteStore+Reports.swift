import GRDB

extension SQLiteStore {
    /// Every push matching `filter`, registered or orphan, with counts from the rollups (never raw events).
    public func pushFigures(_ filter: ReportFilter = ReportFilter()) async throws -> [PushFigures] {
        try await pool.read { db in try Self.pushFigures(filter, in: db) }
    }

    static func pushFigures(_ filter: ReportFilter, in db: Database) throws -> [PushFigures] {
        // A report on one push or one campaign reads only its rows (every table is keyed by push_id first,
        // and pushes has an index by campaign): its cost follows what was asked for, not the database's size.
        let (scope, scopeArguments): (String, StatementArguments) =
            if let pushID = filter.pushID {
                ("WHERE push_id = ?", [pushID])
            } else if let campaign = filter.campaign {
                ("WHERE push_id IN (SELECT push_id FROM pushes WHERE campaign = ?)", [campaign])
            } else {
                ("", [])
            }
        // Columns are read by position: GRDB's by-name lookup scans the column names for every value, and a
        // report over many pushes reads tens of thousands of rows.
        var pushes: [String: PushFigures] = [:]
        pushes.reserveCapacity(filter.pushID == nil ? 1024 : 1)
        // A join through push_sends' key, grouped by push: joining an aggregated subquery instead has no index
        // to use and took most of this function's time.
        let registered = try Row.fetchCursor(db, sql: """
            SELECT p.push_id, p.campaign, p.title, p.sent_at, p.app, p.environment,
                   COALESCE(SUM(s.targeted), 0), COALESCE(SUM(s.sent), 0)
            FROM pushes p LEFT JOIN push_sends s ON s.push_id = p.push_id
            \(scope.replacingOccurrences(of: "WHERE push_id", with: "WHERE p.push_id"))
            GROUP BY p.push_id
            """, arguments: scopeArguments)
        while let row = try registered.next() {
            var funnel = Funnel()
            funnel.pushes = 1
            funnel.targeted = row[6]
            funnel.sent = row[7]
            let id: String = row[0]
            let sentAt: Int64? = row[3]
            if sentAt != nil { funnel.sentTimed = funnel.sent }
            pushes[id] = PushFigures(
                pushID: id, campaign: row[1], title: row[2], sentAtMillis: sentAt,
                app: row[4], environment: row[5], firstEventMillis: nil, funnel: funnel)
        }
        let failures = try Row.fetchCursor(
            db, sql: "SELECT push_id, reason, SUM(count) AS count FROM push_failures \(scope) GROUP BY push_id, reason",
            arguments: scopeArguments)
        while let row = try failures.next() {
            pushes[row[0] as String]?.funnel.failedByReason[row[1]] = row[2]
        }
        let rollups = try Row.fetchCursor(
            db, sql: "SELECT push_id, kind, action, total, duplicates, first_time, late FROM rollup_push \(scope)",
            arguments: scopeArguments)
        while let row = try rollups.next() {
            let id: String = row[0]
            let count = EventCount(total: row[3], duplicates: row[4])
            let first: Int64 = row[5]
            // Mutated in place: a push's figures are a large value, and a copy out and back per row showed.
            pushes[id, default: PushFigures(orphan: id)].add(
                count, kind: EventKind(rawValue: row[1]) ?? .display, action: row[2], late: row[6], firstEvent: first)
        }
        // Ordered by push (the table's key order), so each push is looked up once, not once per bucket.
        let latency = try Row.fetchCursor(
            db, sql: "SELECT push_id, bucket, count FROM rollup_latency \(scope) ORDER BY push_id", arguments: scopeArguments)
        var current: (id: String, histogram: LatencyHistogram)?
        while let row = try latency.next() {
            let id: String = row[0]
            if current?.id != id {
                if let (previous, histogram) = current { pushes[previous]?.funnel.latency.add(histogram) }
                current = (id, LatencyHistogram())
            }
            current?.histogram.add(bucket: row[1], count: row[2])
        }
        if let (previous, histogram) = current { pushes[previous]?.funnel.latency.add(histogram) }
        return pushes.keys.sorted().compactMap { id in pushes[id].flatMap { filter.includes($0) ? $0 : nil } }
    }
}

extension PushFigures {
    /// A push with receipts but no registration.
    init(orphan pushID: String) {
        var funnel = Funnel()
        funnel.pushes = 1
        self.init(pushID: pushID, firstEventMillis: nil, funnel: funnel)
    }

    mutating func add(_ count: EventCount, kind: EventKind, action: String, late: Int64, firstEvent: Int64) {
        if kind == .display {
            funnel.displays.add(count)
            funnel.late += late
        } else {
            funnel.actions[action, default: EventCount()].add(count)
        }
        firstEventMillis = min(firstEventMillis ?? firstEvent, firstEvent)
    }

    init(pushID: String, firstEventMillis: Int64?, funnel: Funnel) {
        self.init(
            pushID: pushID, campaign: nil, title: nil, sentAtMillis: nil, app: nil, environment: nil,
            firstEventMillis: firstEventMillis, funnel: funnel)
    }
}

extension SQLiteStore {
    /// 15-minute rollup counts of the pushes matching `filter`, whose `from`/`to` bound the event time here.
    public func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] {
        try await pool.read { db in try Self.bucketCounts(filter, in: db) }
    }

    /// SQL that narrows rollup rows (table alias `b`) to the pushes `filter` selects by campaign, app,
    /// environment and push id. Orphans have no `pushes` row, so they drop out once any of the first three is set.
    static func pushScope(_ filter: ReportFilter) -> (join: String, conditions: [String], arguments: [any DatabaseValueConvertible]) {
        var conditions: [String] = []
        var arguments: [any DatabaseValueConvertible] = []
        var join = ""
        if filter.campaign != nil || filter.app != nil || filter.environment != nil {
            join = "JOIN pushes p ON p.push_id = b.push_id"
            for (column, value) in [("p.campaign", filter.campaign), ("p.app", filter.app), ("p.environment", filter.environment)] {
                if let value {
                    conditions.append("\(column) = ?")
                    arguments.append(value)
                }
            }
        }
        if let pushID = filter.pushID {
            conditions.append("b.push_id = ?")
            arguments.append(pushID)
        }
        return (join, conditions, arguments)
    }

    static func bucketCounts(_ filter: ReportFilter, in db: Database) throws -> [BucketCount] {
        var (join, conditions, arguments) = pushScope(filter)
        if let from = filter.fromMillis {
            conditions.append("b.bucket >= ?")
            arguments.append(EventTime.bucket(ofMillis: from))
        }
        if let to = filter.toMillis {
            conditions.append("b.bucket <= ?")
            arguments.append(EventTime.bucket(ofMillis: to - 1))
        }
        let sql = """
            SELECT b.bucket, b.kind, b.action, SUM(b.total) AS total, SUM(b.duplicates) AS duplicates
            FROM rollup_bucket b \(join)
            \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND "))
            GROUP BY b.bucket, b.kind, b.action
            """
        return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
            BucketCount(
                bucket: row[0], kind: EventKind(rawValue: row[1]) ?? .display, action: row[2],
                count: EventCount(total: row[3], duplicates: row[4]))
        }
    }
}

extension SQLiteStore {
    /// Receipts and actions per app version (dimension 0) or OS version (1), over the pushes `filter` selects.
    public func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] {
        try await pool.read { db in
            var (join, conditions, arguments) = Self.pushScope(filter)
            conditions.append("b.dimension = ?")
            arguments.append(dimension.rawValue)
            let sql = """
                SELECT b.version, b.kind, b.action, SUM(b.total) AS total, SUM(b.duplicates) AS duplicates
                FROM rollup_version b \(join)
                WHERE \(conditions.joined(separator: " AND "))
                GROUP BY b.version, b.kind, b.action
                """
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                VersionCount(
                    version: row["version"], kind: EventKind(rawValue: row["kind"]) ?? .display, action: row["action"],
                    count: EventCount(total: row["total"], duplicates: row["duplicates"]))
            }
        }
    }
}
