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
        let registered = try Row.fetchCursor(
            db, sql: "SELECT push_id, campaign, title, sent_at, app, environment FROM pushes \(scope)", arguments: scopeArguments)
        while let row = try registered.next() {
            var funnel = Funnel()
            funnel.pushes = 1
            let id: String = row[0]
            pushes[id] = PushFigures(
                pushID: id, campaign: row[1], title: row[2], sentAtMillis: row[3],
                app: row[4], environment: row[5], firstEventMillis: nil, funnel: funnel)
        }
        // Sends by their own scan, in key order, rather than joined: the join cost most of this function's time.
        let sends = try Row.fetchCursor(
            db, sql: "SELECT push_id, SUM(targeted), SUM(sent) FROM push_sends \(scope) GROUP BY push_id", arguments: scopeArguments)
        while let row = try sends.next() {
            pushes[row[0] as String]?.setSends(targeted: row[1], sent: row[2])
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
        try TimingTable.forEachHistogram(in: "rollup_timing", scope: scope, arguments: scopeArguments, db: db) { id, histogram in
            pushes[id]?.funnel.latency.add(histogram)
        }
        return pushes.keys.sorted().compactMap { id in pushes[id].flatMap { filter.includes($0) ? $0 : nil } }
    }
}

extension PushFigures {
    /// A push with receipts but no registration.
    package init(orphan pushID: String) {
        var funnel = Funnel()
        funnel.pushes = 1
        self.init(pushID: pushID, firstEventMillis: nil, funnel: funnel)
    }

    /// The push's send totals; only a push with a `sent_at` counts towards the timed rates.
    package mutating func setSends(targeted: Int64, sent: Int64) {
        funnel.targeted = targeted
        funnel.sent = sent
        funnel.sentTimed = sentAtMillis == nil ? 0 : sent
    }

    package mutating func add(_ count: EventCount, kind: EventKind, action: String, late: Int64, firstEvent: Int64) {
        if kind == .display {
            funnel.displays.add(count)
            funnel.late += late
        } else {
            funnel.actions[action, default: EventCount()].add(count)
        }
        firstEventMillis = min(firstEventMillis ?? firstEvent, firstEvent)
    }

    package init(pushID: String, firstEventMillis: Int64?, funnel: Funnel) {
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
            var counts = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                VersionCount(
                    version: row[0], kind: EventKind(rawValue: row[1]) ?? .display, action: row[2],
                    count: EventCount(total: row[3], duplicates: row[4]))
            }
            // Events that named no version have no rows of their own (most receipts name none, and a row each
            // per commit cost ingest a quarter): they are every event of the push's rollup minus the known ones.
            let (pushJoin, pushConditions, pushArguments) = Self.pushScope(filter)
            let totals = try Row.fetchAll(
                db,
                sql: """
                    SELECT b.kind, b.action, SUM(b.total), SUM(b.duplicates) FROM rollup_push b \(pushJoin)
                    \(pushConditions.isEmpty ? "" : "WHERE " + pushConditions.joined(separator: " AND "))
                    GROUP BY b.kind, b.action
                    """,
                arguments: StatementArguments(pushArguments))
            for row in totals {
                let kind = EventKind(rawValue: row[0]) ?? .display
                let action: String = row[1]
                let known = counts.filter { $0.kind == kind && $0.action == action }
                let total: Int64 = row[2] - known.reduce(0) { $0 + $1.count.total }
                let duplicates: Int64 = row[3] - known.reduce(0) { $0 + $1.count.duplicates }
                if total > 0 {
                    counts.append(VersionCount(
                        version: "", kind: kind, action: action, count: EventCount(total: total, duplicates: duplicates)))
                }
            }
            return counts
        }
    }
}
