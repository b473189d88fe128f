import Metrics

/// What the store reports through swift-metrics (exported by the server as Prometheus text at `/metrics`).
/// Names are the public contract of the Grafana dashboard in `dashboards/grafana/`.
///
/// The writer's handles are made when the backend is installed (``backendInstalled()``), not in statics: a
/// handle made before the metrics backend is bootstrapped would stay a no-op forever. Until then, and for
/// the rarer metrics, handles are looked up per use.
package enum StoreMetrics {
    /// The stores' own shapes (SQLite's batches and flags, PostgreSQL's batches and flat flags), compiled here for
    /// these types: called across the module boundary, the generic form looked up type metadata at runtime for
    /// every element of every commit, on the writer's thread.
    package static func recordIngest(_ events: FlattenSequence<[[IncomingEvent]]>, duplicates: FlattenSequence<[[Bool]]>) {
        count(events, duplicates: duplicates)
    }

    package static func recordIngest(_ events: FlattenSequence<[[IncomingEvent]]>, duplicates: [Bool]) {
        count(events, duplicates: duplicates)
    }

    package static func recordIngest(_ events: some Sequence<IncomingEvent>, duplicates: some Sequence<Bool>) {
        count(events, duplicates: duplicates)
    }

    private static func count(_ events: some Sequence<IncomingEvent>, duplicates: some Sequence<Bool>) {
        // Counted by kind in plain arrays: this runs over every event of every commit on the writer's thread.
        var totals = [Int](repeating: 0, count: 4)
        var retries = [Int](repeating: 0, count: 4)
        for (event, duplicate) in zip(events, duplicates) {
            totals[event.kind.rawValue] += 1
            if duplicate { retries[event.kind.rawValue] += 1 }
        }
        record(totals: totals, retries: retries)
    }

    /// The same for a group commit's batches and their flags, batch by batch: walking them as one
    /// `joined()` sequence through the generic form cost the writer a few percent of a commit.
    package static func recordIngest(batches: [[IncomingEvent]], duplicates: [[Bool]]) {
        var totals = [Int](repeating: 0, count: 4)
        var retries = [Int](repeating: 0, count: 4)
        for (events, flags) in zip(batches, duplicates) {
            for index in events.indices {
                let kind = events[index].kind.rawValue
                totals[kind] += 1
                if flags[index] { retries[kind] += 1 }
            }
        }
        record(totals: totals, retries: retries)
    }

    private static func record(totals: [Int], retries: [Int]) {
        let handles = WriterHandles.installed
        for kind in [EventKind.display, .action, .session, .conversion] {
            if totals[kind.rawValue] > 0 {
                (handles?.ingested[kind.rawValue] ?? WriterHandles.ingested(kind)).increment(by: totals[kind.rawValue])
            }
            if retries[kind.rawValue] > 0 {
                (handles?.duplicates[kind.rawValue] ?? WriterHandles.duplicates(kind)).increment(by: retries[kind.rawValue])
            }
        }
    }

    /// The `kind` label of an event kind in the ingest counters.
    package static func label(_ kind: EventKind) -> String {
        switch kind {
        case .display: "display"
        case .action: "action"
        case .session: "session"
        case .conversion: "conversion"
        }
    }

    /// One group commit: its wall time (fsync included) and how many events it held.
    package static func recordCommit(duration: Duration, events: Int) {
        let handles = WriterHandles.installed
        (handles?.commitDuration ?? WriterHandles.commitDuration()).record(duration: duration)
        (handles?.batchEvents ?? WriterHandles.batchEvents()).record(events)
    }

    /// Makes the writer's handles once, against the backend just bootstrapped: looked up per commit, each
    /// would go through the backend's registry (a lock, name validation, a dictionary) on the one writer
    /// thread. Call it right after `MetricsSystem.bootstrap`.
    package static func backendInstalled() {
        WriterHandles.install()
    }
}

extension StoreMetrics {
    /// Webhook deliveries queued by a transaction that committed (one per message and endpoint).
    package static func recordQueued(deliveries: Int) {
        guard deliveries > 0 else { return }
        Counter(label: "pushtally_webhook_messages_queued_total").increment(by: deliveries)
    }
}

extension StoreMetrics {
    /// A commit chain the writer's watchdog gave up (``WriterWatchdog``): rare, and each one answered requests 503.
    package static func recordStall() {
        Counter(label: "pushtally_writer_stalls_total").increment()
    }
}
