import ArgumentParser
import PushTallyServer

/// `serve`'s bounds on what a slow or unanswering database may hold: how long a commit may take, and how many
/// ingest requests may wait for one. Each falls back to its `PUSHTALLY_*` variable.
struct OverloadOptions: ParsableArguments {
    @Option(
        help: """
            A group commit (and /healthz's write) taking longer than this is given up: its requests get 503 \
            with Retry-After (PostgreSQL: its connection is closed; SQLite: counted after SQLite's own 10 s \
            wait for another process's lock) (env PUSHTALLY_COMMIT_TIMEOUT; default 5s).
            """)
    var commitTimeout: String?

    @Option(
        help: """
            A report, a registration or another request outside ingest waiting on the database longer than \
            this is answered 503 with Retry-After; a token check and a /metrics scrape get a sixth of it, at \
            least 5s (env PUSHTALLY_STORE_TIMEOUT; default 30s).
            """)
    var storeTimeout: String?

    @Option(
        help: """
            Ingest requests waiting for their commit at once; beyond it ingest answers 503 with Retry-After \
            at once (env PUSHTALLY_MAX_INGEST_IN_FLIGHT; default 4096).
            """)
    var maxIngestInFlight: Int?

    /// `--commit-timeout`, from 1 second to 5 minutes.
    func commitTimeoutDuration() throws -> Duration {
        guard let text = commitTimeout ?? environment("PUSHTALLY_COMMIT_TIMEOUT") else { return .seconds(5) }
        let millis = try durationMillis(text, flag: "commit-timeout")
        guard (1000...300_000).contains(millis) else { throw ValidationError("--commit-timeout must be from 1s to 5m, not \(text)") }
        return .milliseconds(millis)
    }

    /// `--store-timeout`, from 5 seconds to 10 minutes.
    func storeDeadlines() throws -> StoreDeadlines {
        guard let text = storeTimeout ?? environment("PUSHTALLY_STORE_TIMEOUT") else { return StoreDeadlines() }
        let millis = try durationMillis(text, flag: "store-timeout")
        guard (5000...600_000).contains(millis) else { throw ValidationError("--store-timeout must be from 5s to 10m, not \(text)") }
        return StoreDeadlines(request: .milliseconds(millis))
    }

    /// `--max-ingest-in-flight`, from 1 to 1,000,000.
    func ingestInFlightBound() throws -> Int {
        let bound = try maxIngestInFlight ?? environment("PUSHTALLY_MAX_INGEST_IN_FLIGHT").map { value in
            guard let count = Int(value) else { throw ValidationError("PUSHTALLY_MAX_INGEST_IN_FLIGHT must be a number, not \(value)") }
            return count
        } ?? 4096
        guard (1...1_000_000).contains(bound) else { throw ValidationError("--max-ingest-in-flight must be from 1 to 1000000") }
        return bound
    }
}
