import Foundation
import Metrics

/// The metric handles of every group commit, made once the backend is installed (``StoreMetrics/backendInstalled()``).
struct WriterHandles: Sendable {
    /// By `EventKind.rawValue`.
    let ingested: [Counter]
    let duplicates: [Counter]
    let commitDuration: Timer
    let batchEvents: Recorder

    private static let kinds: [EventKind] = [.display, .action, .session, .conversion]
    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: WriterHandles?

    /// The handles, or `nil` before the backend was installed.
    static var installed: WriterHandles? {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    static func install() {
        let handles = WriterHandles(
            ingested: kinds.map(ingested), duplicates: kinds.map(duplicates), commitDuration: commitDuration(),
            batchEvents: batchEvents())
        lock.lock()
        current = handles
        lock.unlock()
    }

    static func ingested(_ kind: EventKind) -> Counter {
        Counter(label: "pushtally_events_ingested_total", dimensions: [("kind", StoreMetrics.label(kind))])
    }

    static func duplicates(_ kind: EventKind) -> Counter {
        Counter(label: "pushtally_duplicates_total", dimensions: [("kind", StoreMetrics.label(kind))])
    }

    static func commitDuration() -> Timer { Timer(label: "pushtally_commit_duration_seconds") }

    static func batchEvents() -> Recorder { Recorder(label: "pushtally_commit_batch_events", aggregate: true) }
}
