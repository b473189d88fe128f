import GRDB

extension SQLiteStore {
    /// Every push matching `filter`, registered or orphan, with counts from the rollups (never raw events).
    public func pushFigures(_ filter: ReportFilter = ReportFilter()) async throws -> [PushFigures] {
        try await pool.read { db in try Self.pushFigures(filter, in: db) }
    }

    static func pushFigures(_ filter: ReportFilter, in db: Database) throws -> [PushFigures] {
        var pushes: [String: PushFigures] = [:]
        let registered = try Row.fetchCursor(db, sql: """
            SELECT p.push_id, p.campaign, p.title, p.sent_at, p.app, p.environment,
                   COALESCE(s.targeted, 0) AS targeted, COALESCE(s.sent, 0) AS sent
            FROM pushes p
            LEFT JOIN (SELECT push_id, SUM(targeted) AS targeted, SUM(sent) AS sent FROM push_sends GROUP BY push_id) s
                ON s.push_id = p.push_id
            """)
        while let row = try registered.next() {
            var funnel = Funnel()
            funnel.pushes = 1
            funnel.targeted = row["targeted"]
            funnel.sent = row["sent"]
            let id: String = row["push_id"]
            pushes[id] = PushFigures(
                pushID: id, campaign: row["campaign"], title: row["title"], sentAtMillis: row["sent_at"],
                app: row["app"], environment: row["environment"], firstEventMillis: nil, funnel: funnel)
        }
        let failures = try Row.fetchCursor(
            db, sql: "SELECT push_id, reason, SUM(count) AS count FROM push_failures GROUP BY push_id, reason")
        while let row = try failures.next() {
            pushes[row["push_id"]]?.funnel.failedByReason[row["reason"]] = row["count"]
        }
        let rollups = try Row.fetchCursor(
            db, sql: "SELECT push_id, kind, action, total, duplicates, first_time, late FROM rollup_push")
        while let row = try rollups.next() {
            let id: String = row["push_id"]
            var push = pushes[id] ?? {
                var funnel = Funnel()
                funnel.pushes = 1
                return PushFigures(pushID: id, firstEventMillis: nil, funnel: funnel)
            }()
            let count = EventCount(total: row["total"], duplicates: row["duplicates"])
            if EventKind(rawValue: row["kind"]) == .display {
                push.funnel.displays.add(count)
                push.funnel.late += row["late"] as Int64
            } else {
                push.funnel.actions[row["action"], default: EventCount()].add(count)
            }
            let first: Int64 = row["first_time"]
            push.firstEventMillis = min(push.firstEventMillis ?? first, first)
            pushes[id] = push
        }
        let latency = try Row.fetchCursor(db, sql: "SELECT push_id, bucket, count FROM rollup_latency")
        while let row = try latency.next() {
            pushes[row["push_id"]]?.funnel.latency.add(bucket: row["bucket"], count: row["count"])
        }
        return pushes.values.filter(filter.includes).sorted { $0.pushID < $1.pushID }
    }
}

extension PushFigures {
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
                bucket: row["bucket"], kind: EventKind(rawValue: row["kind"]) ?? .display, action: row["action"],
                count: EventCount(total: row["total"], duplicates: row["duplicates"]))
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
