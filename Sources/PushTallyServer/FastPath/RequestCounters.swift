import Metrics
import PushTallyCore

/// `pushtally_http_requests_total` handles for one connection's fast-path answers.
///
/// Kept per connection (event-loop confined, so no lock) and keyed by small integers, since making a handle
/// takes the metrics registry's lock: on the ingest hot path that is one lookup per connection and status,
/// not per request.
struct RequestCounters {
    private var counters: [Int: Counter] = [:]

    mutating func record(_ kind: EventKind, status: Int) {
        let key = kind.rawValue << 16 | status
        if let counter = counters[key] { return counter.increment() }
        let counter = Counter(
            label: "pushtally_http_requests_total",
            dimensions: [("route", IngestFastPath.route(kind)), ("method", "POST"), ("status", String(status))])
        counters[key] = counter
        counter.increment()
    }
}
