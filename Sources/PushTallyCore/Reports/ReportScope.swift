/// Which rows a report reads, decided once here; each engine only renders it in its SQL dialect, so a filter cannot narrow differently on SQLite and PostgreSQL.
package enum PushScope: Sendable, Equatable {
    /// Every push.
    case all
    /// One push's rows.
    case push(String)
    /// The rows of a campaign's pushes (every table is keyed by `push_id` first, and `pushes` has an index by
    /// campaign, so a report's cost follows what was asked for, not the database's size).
    case campaign(String)
    /// The rows of the pushes of the campaigns from `first` to `last`, both included, in byte order: one page of
    /// a report read a page at a time (``ReportPage``).
    case campaigns(first: String, last: String)
    /// The rows of pushes nobody registered whose ids come after `after` and up to `through` (each bound
    /// open when `nil`): the last pages of a report read a page at a time.
    case orphans(after: String?, through: String?)

    package init(_ filter: ReportFilter) {
        if let pushID = filter.pushID {
            self = .push(pushID)
        } else if let campaign = filter.campaign {
            self = .campaign(campaign)
        } else {
            switch filter.page {
            case .campaigns(let first, let last)?: self = .campaigns(first: first, last: last)
            case .orphans(let after, let through)?: self = .orphans(after: after, through: through)
            case nil: self = .all
            }
        }
    }

    /// The `WHERE` clause over a table keyed by `push_id` (`key` names that column where a join makes the bare
    /// name ambiguous), with its values in the order of their placeholders.
    package func clause(_ dialect: SQLDialect, key: String = "push_id") -> (sql: String, values: [String]) {
        switch self {
        case .all: ("", [])
        case .push(let id): ("WHERE push_id = ?", [id])
        case .campaign(let name): ("WHERE push_id IN (SELECT push_id FROM pushes WHERE campaign = ?)", [name])
        case .campaigns(let first, let last):
            ("WHERE push_id IN (SELECT push_id FROM pushes WHERE \(dialect.campaignsBetween()))", [first, last])
        case .orphans(let after, let through):
            dialect.orphans(key: key, after: after, through: through)
        }
    }
}

/// A page of a report read a page at a time, in the order its rows are listed: campaigns by name, then the
/// pushes nobody registered (``CampaignPager``).
package enum ReportPage: Sendable, Hashable {
    /// The campaigns from `first` to `last`, both included, in byte order.
    case campaigns(first: String, last: String)
    /// The pushes nobody registered whose ids come after `after` and up to `through` (each bound open when
    /// `nil`), in the order of the database's own comparison: their rows add up into one row whatever the order.
    case orphans(after: String?, through: String?)
}

/// Conditions narrowing rollup rows (table alias `b`) to the pushes a filter selects, and optionally to an
/// event-time range of 15-minute buckets. Orphans have no `pushes` row, so they drop out once campaign, app
/// or environment is set.
package struct RollupScope: Sendable {
    /// Whether the rows must be joined with `pushes` (alias `p`).
    package var joinsPushes = false
    /// `column operator` and the value it is compared with, ANDed.
    package var conditions: [(test: String, value: QueryValue)] = []
    /// The table bucket counts are summed from: with no push condition, the rollup over every push
    /// (``RollupTarget/time``, a row per bucket), else the per-push one (a row per push and bucket).
    package private(set) var bucketTable = RollupTarget.rollups.time

    package init(_ filter: ReportFilter, bucketRange: Bool = false) {
        let pushConditions = [("p.campaign =", filter.campaign), ("p.app =", filter.app), ("p.environment =", filter.environment)]
        for case (let test, let value?) in pushConditions {
            joinsPushes = true
            conditions.append((test, .text(value)))
        }
        if let pushID = filter.pushID { conditions.append(("b.push_id =", .text(pushID))) }
        if !conditions.isEmpty { bucketTable = RollupTarget.rollups.bucket }
        guard bucketRange else { return }
        if let from = filter.fromMillis { conditions.append(("b.bucket >=", .integer(EventTime.bucket(ofMillis: from)))) }
        if let to = filter.toMillis { conditions.append(("b.bucket <=", .integer(EventTime.bucket(ofMillis: to - 1)))) }
    }

    /// This scope over the per-bucket platform rollup, narrowed to the events that named `platform`.
    package func named(platform: String) -> RollupScope {
        var scope = requiring("b.platform =", .text(platform))
        scope.bucketTable = RollupTarget.rollups.platformBucket
        return scope
    }

    /// This scope over the per-bucket platform rollup's rows of every named platform but `unknown` (a client
    /// may send that name itself): what a bucket's events that named no platform are the rest of.
    package var namedPlatforms: RollupScope {
        var scope = requiring("b.platform <>", .text(ReportGrouping.unknownPlatform))
        scope.bucketTable = RollupTarget.rollups.platformBucket
        return scope
    }

    /// This scope with one more condition.
    package func requiring(_ test: String, _ value: QueryValue) -> RollupScope {
        var scope = self
        scope.conditions.append((test, value))
        return scope
    }

    /// `JOIN … WHERE …` for rows of `table b`, a `?` for each condition's value.
    package var sql: String {
        var sql = joinsPushes ? "JOIN pushes p ON p.push_id = b.push_id" : ""
        if !conditions.isEmpty {
            sql += " WHERE " + conditions.map { "\($0.test) ?" }.joined(separator: " AND ")
        }
        return sql
    }
}
