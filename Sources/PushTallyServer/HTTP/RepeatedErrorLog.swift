import Logging
import Synchronization

/// Logs an error that repeats with every request (a full disk, a database that is down) once when it starts,
/// then at most one line per interval saying how many times it recurred meanwhile: a line per refused request
/// buries the log under thousands of lines that say no more than the first did.
final class RepeatedErrorLog: Sendable {
    let interval: Duration
    private let entries = Mutex<[String: Entry]>([:])

    private struct Entry {
        var logged: ContinuousClock.Instant
        var suppressed: Int
    }

    init(interval: Duration) {
        self.interval = interval
    }

    /// Logs `message` at error level unless a line of it went out within the interval; then it is only
    /// counted, and the next line that goes out carries the count (`suppressed`) and the time it covers.
    func error(_ message: String, metadata: Logger.Metadata, logger: Logger) {
        let now = ContinuousClock.now
        let since: (count: Int, seconds: Int64)? = entries.withLock { entries in
            if var entry = entries[message], now - entry.logged < interval {
                entry.suppressed += 1
                entries[message] = entry
                return nil
            }
            let previous = entries[message]
            entries[message] = Entry(logged: now, suppressed: 0)
            return (previous?.suppressed ?? 0, previous.map { (now - $0.logged).components.seconds } ?? 0)
        }
        guard let since else { return }
        var metadata = metadata
        if since.count > 0 {
            metadata["suppressed"] = "\(since.count)"
            metadata["suppressed_over_seconds"] = "\(since.seconds)"
        }
        logger.error("\(message)", metadata: metadata)
    }

    /// The log of the HTTP layer's storage and database failures: a line a request at most every 10 s.
    static let storage = RepeatedErrorLog(interval: .seconds(10))
}
