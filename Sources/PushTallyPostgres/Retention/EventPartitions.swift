import Logging
import PostgresNIO
import PushTallyCore

/// Raw `events` on PostgreSQL are a table partitioned by range of `received_at`, one partition per UTC day
/// (`events_pYYYYMMDD`), plus `events_default` for any time no day partition covers yet.
///
/// By receive time because retention prunes by it: every row of a day wholly before the cutoff is due, so
/// the day is dropped whole, and only the day the cutoff falls in is pruned row by row. Days rather than
/// weeks so that day is at most a day of rows, and a 30-day window is about 40 partitions.
///
/// Collectors create the next days ahead of time under the migration lock. Creating a day moves any rows
/// the default partition holds for it first (a copied or imported history, a clock far off), so the
/// partition always attaches.
enum EventPartitions {
    static let dayMillis: Int64 = 86_400_000
    /// Days created ahead of the clock, and behind it (a collector started just after midnight still finds
    /// the day before).
    static let daysAhead: Int64 = 7
    static let daysBehind: Int64 = 1
    static let defaultPartition = "events_default"
    private static let prefix = "events_p"
    /// Primary keys of a partitioned table hold its partition key: the identity `id` stays unique by itself.
    static let primaryKey = "ALTER TABLE events ADD PRIMARY KEY (id, received_at)"
    /// Day partitions detached by retention whose rows are being folded into the ledger, and the last push
    /// id folded (`NULL` before the first batch): the fold commits this mark with each batch it adds, so a
    /// crash neither loses nor repeats one (``RetiredFold``).
    static let createRetired = "CREATE TABLE IF NOT EXISTS retired_events (name TEXT PRIMARY KEY, folded_through TEXT)"

    /// The UTC day holding `millis`, as days since 1970 (floored, so negative times work too).
    static func day(ofMillis millis: Int64) -> Int64 {
        millis >= 0 ? millis / dayMillis : (millis - dayMillis + 1) / dayMillis
    }

    /// `events_pYYYYMMDD` for `day`.
    static func name(ofDay day: Int64) -> String {
        let (year, month, date) = Timestamp.civilDate(daysSince1970: day)
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return prefix + padded(year, 4) + padded(month, 2) + padded(date, 2)
    }

    /// The day of a partition named by ``name(ofDay:)``; `nil` for any other name.
    static func day(ofName name: String) -> Int64? {
        guard name.hasPrefix(prefix) else { return nil }
        let digits = String(name.dropFirst(prefix.count))
        guard digits.count == 8, let date = Int64(digits) else { return nil }
        return Timestamp.daysSince1970(year: date / 10_000, month: date / 100 % 100, day: date % 100)
    }

    /// The days around `nowMillis` collectors keep created.
    static func daysAround(_ nowMillis: Int64) -> ClosedRange<Int64> {
        let today = day(ofMillis: nowMillis)
        return (today - daysBehind)...(today + daysAhead)
    }

    /// The day partitions that exist, by day, read from their bounds.
    static func existing(on connection: PostgresConnection, logger: Logger) async throws -> [Int64: String] {
        var days: [Int64: String] = [:]
        for (name, bound) in try await connection.fetch(Queries.SelectEventPartitions(), logger: logger) {
            // FOR VALUES FROM ('1764028800000') TO ('1764115200000'); the default says DEFAULT.
            guard let lower = bound.split(separator: "'").dropFirst().first.flatMap({ Int64($0) }) else { continue }
            days[day(ofMillis: lower)] = name
        }
        return days
    }

    /// Creates the partitions of `days` that do not exist, each in one transaction under the migration lock.
    /// `connection` is outside any transaction.
    static func ensure(_ days: ClosedRange<Int64>, on connection: PostgresConnection, logger: Logger) async throws {
        for day in days {
            try await connection.run("BEGIN", logger: logger)
            do {
                try await connection.run(Queries.AdvisoryTransactionLock(key: PostgresSchema.migrationLock), logger: logger)
                try await create(day: day, on: connection, logger: logger)
                try await connection.commit(logger: logger)
            } catch {
                await connection.rollBack(after: error, logger: logger)
                throw error
            }
        }
    }

    /// Creates `day`'s partition unless it exists, inside the caller's transaction: a table of the parent's
    /// columns, filled with the default partition's rows of that day, then attached. Attaching takes only a
    /// `SHARE UPDATE EXCLUSIVE` lock on `events`, so ingest goes on meanwhile.
    static func create(day: Int64, on connection: PostgresConnection, logger: Logger) async throws {
        let name = name(ofDay: day)
        let exists = try await connection.fetch(Queries.SelectRelationExists(name: name), logger: logger)
        guard exists.first == false else { return }
        let columns = try await columnList(on: connection, logger: logger)
        try await connection.run(Queries.CreateDayPartition(name: name), logger: logger)
        try await connection.run(Queries.MoveDefaultRowsToDay(name: name, day: day, columns: columns), logger: logger)
        try await connection.run(Queries.AttachDayPartition(name: name, day: day), logger: logger)
        logger.debug("created raw event partition", metadata: ["partition": "\(name)"])
    }

    /// The parent's columns in order, for statements that move rows between tables column for column
    /// (columns added by later migrations included).
    static func columnList(of table: String = "events", on connection: PostgresConnection, logger: Logger) async throws -> String {
        try await connection.fetch(Queries.SelectColumnList(table: table), logger: logger).first ?? ""
    }
}
