import Metrics
import PushTallyCore

/// `pushtally_http_requests_total` for ingest answers, on either path: every ``IngestResponse`` is counted here
/// once, by its route, method and status (the router's middleware counts every other route the same way).
///
/// The fast path keeps one per connection (event-loop confined, so no lock), keyed by small integers, since
/// making a handle takes the metrics registry's lock: on the ingest hot path that is one lookup per connection
/// and status, not per request.
struct RequestCounters {
    /// A connection sees one or two (route, status) pairs: a scan of them costs less than hashing the key.
    private var counters: [(key: Int, counter: Counter)] = []

    mutating func record(_ response: IngestResponse) {
        let route = response.route
        let status = response.status.code
        // Only the ingest routes answer through here, and each takes one kind of event.
        let key = (route.eventKind?.rawValue ?? 0xFF) << 16 | status
        for index in counters.indices where counters[index].key == key { return counters[index].counter.increment() }
        let counter = Counter(
            label: "pushtally_http_requests_total",
            dimensions: [("route", route.path), ("method", route.method.rawValue), ("status", String(status))])
        counters.append((key, counter))
        counter.increment()
    }
}
