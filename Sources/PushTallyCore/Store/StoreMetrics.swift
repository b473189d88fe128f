import Metrics

/// What the store reports through swift-metrics (exported by the server as Prometheus text at `/metrics`).
/// Names are the public contract of the Grafana dashboard in `dashboards/grafana/`.
///
/// Handles are looked up per use rather than kept in statics: a handle made before the metrics backend is
/// bootstrapped would stay a no-op forever.
package enum StoreMetrics {
    package static func recordIngest(_ events: some Sequence<IncomingEvent>, duplicates: some Sequence<Bool>) {
        var counts = (displays: 0, actions: 0, duplicateDisplays: 0, duplicateActions: 0)
        for (event, duplicate) in zip(events, duplicates) {
            if event.kind == .display {
                counts.displays += 1
                if duplicate { counts.duplicateDisplays += 1 }
            } else {
                counts.actions += 1
                if duplicate { counts.duplicateActions += 1 }
            }
        }
        for (label, kind, count) in [
            ("pushtally_events_ingested_total", "display", counts.displays),
            ("pushtally_events_ingested_total", "action", counts.actions),
            ("pushtally_duplicates_total", "display", counts.duplicateDisplays),
            ("pushtally_duplicates_total", "action", counts.duplicateActions),
        ] where count > 0 {
            Counter(label: label, dimensions: [("kind", kind)]).increment(by: count)
        }
    }

    /// One group commit: its wall time (fsync included) and how many events it held.
    package static func recordCommit(duration: Duration, events: Int) {
        Timer(label: "pushtally_commit_duration_seconds").record(duration: duration)
        Recorder(label: "pushtally_commit_batch_events", aggregate: true).record(events)
    }
}

extension StoreMetrics {
    /// Webhook deliveries queued by a transaction that committed (one per message and endpoint).
    package static func recordQueued(deliveries: Int) {
        guard deliveries > 0 else { return }
        Counter(label: "pushtally_webhook_messages_queued_total").increment(by: deliveries)
    }
}
