import Foundation

/// Queued events bound for one route, as one request: at most `batchSize` NDJSON lines, oldest first.
struct OutboxBatch: Equatable, Sendable {
    var route: Route
    /// The queued files the lines came from, removed once the collector answers 2xx.
    var names: [String] = []
    var lines: [Data] = []

    var body: Data { Data(lines.joined(separator: Data("\n".utf8))) }

    /// Groups queued events (oldest first) by route, the route of the oldest event first, each group cut into
    /// batches of at most `batchSize`: each route has its own request shape, and one request per route and
    /// batch sends a mixed queue in as few requests as possible.
    static func group(_ events: [(name: String, route: Route, line: Data)], batchSize: Int) -> [OutboxBatch] {
        var routes: [Route] = []
        var byRoute: [Route: [OutboxBatch]] = [:]
        for event in events {
            if byRoute[event.route] == nil { routes.append(event.route) }
            var batches = byRoute[event.route, default: []]
            if batches.isEmpty || batches[batches.count - 1].lines.count >= max(1, batchSize) {
                batches.append(OutboxBatch(route: event.route))
            }
            batches[batches.count - 1].names.append(event.name)
            batches[batches.count - 1].lines.append(event.line)
            byRoute[event.route] = batches
        }
        return routes.flatMap { byRoute[$0] ?? [] }
    }
}
