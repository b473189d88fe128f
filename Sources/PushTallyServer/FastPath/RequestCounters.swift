import Metrics

/// `pushtally_http_requests_total` handles for one connection's fast-path answers.
///
/// Kept per connection (event-loop confined, so no lock), since making a handle takes the metrics
/// registry's lock: on the ingest hot path that is one lookup per connection and status, not per request.
struct RequestCounters {
    private struct Key: Hashable {
        let route: String
        let status: Int
    }

    private var counters: [Key: Counter] = [:]

    mutating func record(route: String, status: Int) {
        let key = Key(route: route, status: status)
        if let counter = counters[key] { return counter.increment() }
        let counter = Counter(
            label: "pushtally_http_requests_total",
            dimensions: [("route", route), ("method", "POST"), ("status", String(status))])
        counters[key] = counter
        counter.increment()
    }
}
