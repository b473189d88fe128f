extension Queries {
    /// The audience report's read of ``AudienceTable``: rows of (group, devices, one count per
    /// ``NotificationPermission``, in its order, unknown). The group is a day number (integer) by day, the app or
    /// version text (`''` for none) by app or app version, and a bare 0 without one.
    ///
    /// Per device and group it keeps the greatest-ranked row in the range (the rollup's own merge order), then
    /// counts the kept rows by setting.
    package struct SelectAudienceCounts: RowQuery {
        package let query: AudienceQuery

        package init(_ query: AudienceQuery) { self.query = query }

        private var group: String? {
            switch query.grouping {
            case .day: "bucket / \(AudienceQuery.bucketsPerDay)"
            case .app: "app"
            case .appVersion: "app_version"
            case nil: nil
            }
        }

        package func sql(_ dialect: SQLDialect) -> String {
            var conditions: [String] = []
            if query.fromBucket != nil { conditions.append("bucket >= ?") }
            if query.toBucket != nil { conditions.append("bucket <= ?") }
            let range = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
            // COALESCE: without a grouping the one row of an empty range sums nothing.
            let counts = NotificationPermission.allCases.map { permission in
                "COALESCE(SUM(CASE WHEN known = 1 AND permission = '\(permission.rawValue)' THEN 1 ELSE 0 END), 0)"
            } + ["COALESCE(SUM(CASE WHEN known = 0 THEN 1 ELSE 0 END), 0)"]
            // Days before 1970 cannot be stored (event times are clamped to their receipt), so the day's plain
            // integer division is its floor.
            return """
                SELECT \(group == nil ? "0" : "grp"), COUNT(*), \(counts.joined(separator: ", ")) FROM (
                    SELECT \(group.map { "\($0) AS grp, " } ?? "")known, permission,
                        ROW_NUMBER() OVER (
                            PARTITION BY device_id\(group.map { ", \($0)" } ?? "")
                            ORDER BY known DESC, session_time DESC, permission DESC) AS position
                    FROM \(AudienceTable.name) \(range)) latest
                WHERE position = 1\(group == nil ? "" : " GROUP BY grp")
                """
        }

        package var values: [QueryValue] { [query.fromBucket, query.toBucket].compactMap { $0 }.map { .integer($0) } }

        package func row(_ columns: some QueryRow) throws -> AudienceCount {
            let group: AudienceCount.Group? =
                switch query.grouping {
                case .day: .day(try columns.int64(0))
                case .app, .appVersion: .text(try columns.text(0))
                case nil: nil
                }
            let counts = try (2..<(3 + NotificationPermission.allCases.count)).map { try columns.int64($0) }
            return AudienceCount(group: group, counts: counts)
        }
    }
}
