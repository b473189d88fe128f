import ArgumentParser
import PushTallyCore
import PushTallyStores

/// `--read-database` and `--max-read-lag`: reports read from a PostgreSQL streaming standby while it is
/// current, from the primary (`--database`) otherwise.
struct ReadReplicaOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A streaming standby of the PostgreSQL --database to read reports from (env PUSHTALLY_READ_DATABASE); ingest and every write stay on the primary.",
            valueName: "url"))
    var readDatabase: String?

    @Option(
        help: ArgumentHelp(
            "Past this replay lag, or when the standby does not answer, reports are read from the primary (env PUSHTALLY_MAX_READ_LAG; default 30s).",
            valueName: "duration"))
    var maxReadLag: String?

    /// The standby's URL, from the flag or the environment.
    var location: StoreLocation? {
        (readDatabase ?? environment("PUSHTALLY_READ_DATABASE")).map(StoreLocation.init)
    }

    /// `--max-read-lag` in seconds: from 0 (only a caught-up standby) to a day.
    func maxLagSeconds() throws -> Double {
        guard let text = maxReadLag ?? environment("PUSHTALLY_MAX_READ_LAG") else { return 30 }
        let millis = try durationMillis(text, flag: "max-read-lag")
        guard millis <= 86_400_000 else { throw ValidationError("--max-read-lag must be at most 1d, not \(text)") }
        return Double(millis) / 1000
    }

    /// Refuses, before anything is opened, what cannot have a replica: a SQLite `--database`, or `--server`
    /// (whose own `--read-database` applies).
    func check(primary: SourceOptions) throws {
        guard location != nil else { return }
        if primary.isRemote {
            throw ValidationError("--read-database reads the database directly; with --server the server's own --read-database applies")
        }
        try check(database: primary.database)
    }

    /// Refuses a replica beside a SQLite `--database`.
    func check(database: DatabaseOptions) throws {
        if location != nil, !database.isPostgres {
            throw ValidationError("--read-database needs a PostgreSQL --database: a SQLite file has no replicas")
        }
    }

    /// Opens the standby, if one is named; a SQLite primary or replica is a usage error (exit 64), a standby
    /// of a newer PushTally exit code 4. One that does not answer yet is opened all the same: reports are read
    /// from the primary until it does.
    func open(primary: DatabaseOptions) async throws -> (any ReadReplica)? {
        guard let location else { return nil }
        try check(database: primary)
        let options = try primary.options(mustExist: true, needsDeviceSecret: false)
        do {
            return try await StoreFactory.openReadReplica(location, options)
        } catch let error as StoreOpenError {
            throw ValidationError(error.description)
        } catch {
            printError("cannot open read replica \(location): \(error)")
            throw Exit.storeFailure
        }
    }

    /// Where the CLI's reports read: the replica beside `source`'s database while it is current (sampled once
    /// now), else the database itself; `nil` without `--read-database`. Says on stderr when the replica is
    /// passed over, so a script's output stays the report alone.
    func reads(for source: SourceOptions.Source, primary: DatabaseOptions) async throws -> ReportReadRouter? {
        guard location != nil else { return nil }
        guard case .database(let store) = source else { return nil }
        guard let replica = try await open(primary: primary) else { return nil }
        let reads = ReportReadRouter(primary: store, replica: replica, maxLagSeconds: try maxLagSeconds())
        let state = await reads.sample()
        if reads.currentSource.source == .primary {
            let why = state?.lagSeconds.map {
                $0.isFinite ? "lags \(ReportReadRouter.secondsText($0)) s, more than --max-read-lag" : "has lost its primary and replayed nothing yet"
            } ?? "does not answer"
            printError("reading from the primary: the replica at \(replica.location) \(why)")
        }
        return reads
    }
}
