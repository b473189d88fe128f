import Foundation
import Hummingbird
import Metrics
import Prometheus
import PushTallyCore

/// The Prometheus backend for swift-metrics, bootstrapped once per process (swift-metrics allows one).
public enum ServerMetrics {
    /// Where every metric of the process lands; `/metrics` renders it.
    public static let registry = PrometheusCollectorRegistry()

    private static let bootstrapped: Void = {
        var factory = PrometheusMetricsFactory(registry: registry)
        // Commits take about a millisecond (one fsync); requests a few.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .seconds(2.5), .seconds(5),
        ]
        factory.defaultValueHistogramBuckets = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
        MetricsSystem.bootstrap(factory)
        // Makes the writer's handles, which also puts every series a dashboard plots (ingested and duplicates by
        // kind, commit duration and size) in the registry from the start, at zero: a fresh server shows 0, not
        // "No data".
        StoreMetrics.backendInstalled()
    }()

    /// Installs the Prometheus backend unless done already.
    public static func bootstrap() {
        _ = bootstrapped
    }

    /// Counts a report answered from `source` (`pushtally_report_reads_total`): how often reports fall back to the primary.
    static func reportRead(from source: ReadSource) {
        Counter(label: "pushtally_report_reads_total", dimensions: [("source", source.rawValue)]).increment()
    }

    /// A read of the event feed by the token `reader`: when it last succeeded, and how far behind it was (0 when
    /// the page reached the end of the feed, else now minus the newest event it read).
    static func feedRead(reader: String, page: EventFeedPage, limit: Int, nowMillis: Int64) {
        Gauge(label: "pushtally_export_last_success_timestamp_seconds", dimensions: [("reader", reader)]).record(Double(nowMillis) / 1000)
        let newest = page.events.count < limit ? nil : page.events.map(\.received_at).max()
        let lag = newest.map { max(0, Double(nowMillis - $0) / 1000) } ?? 0
        Gauge(label: "pushtally_export_lag_seconds", dimensions: [("reader", reader)]).record(lag)
    }

    static func rejected(_ code: String, count: Int = 1) {
        Counter(label: "pushtally_events_rejected_total", dimensions: [("reason", code)]).increment(by: count)
    }
}

/// ``APIRoute/metrics``: Prometheus text, with the gauges that are read at scrape time.
struct MetricsController<Context: RequestContext>: Sendable {
    let store: any EventIngestor & StoreLifecycle & ReportReader
    private let recentDisplays: RecentDisplaysCache
    /// How long a scrape's reads may take (``StoreDeadlines/scrape``).
    let deadlines: StoreDeadlines

    init(store: any EventIngestor & StoreLifecycle & ReportReader, deadlines: StoreDeadlines = StoreDeadlines()) {
        self.store = store
        self.deadlines = deadlines
        recentDisplays = RecentDisplaysCache(store: store)
    }

    func register(on routes: RouteTable<Context>) {
        routes.on(.metrics) { _, _ in
            Gauge(label: "pushtally_writer_queue_events").record(store.queuedEvents)
            // Beside the queue, so an alert can compare the two without knowing how the collector was started.
            Gauge(label: "pushtally_writer_queue_high_water_mark").record(store.configuration.writerHighWaterMark)
            // A database that does not answer within the bound (the reads wait at once) leaves the last figures:
            // the scrape itself must still succeed, since the other figures (the queue, the errors) are what tell
            // of that outage.
            async let size = StoreDeadline.run(deadlines.scrape) { [store] in await store.databaseBytes() }
            async let counted = StoreDeadline.run(deadlines.scrape) { [recentDisplays] in try await recentDisplays.current() }
            async let storage = StoreDeadline.run(deadlines.scrape) { [store] in await store.storageSpace() }
            if let bytes = try? await size {
                Gauge(label: "pushtally_database_bytes").record(bytes)
            }
            if let space = try? await storage {
                Gauge(label: "pushtally_disk_free_bytes").record(space.diskFreeBytes)
                Gauge(label: "pushtally_disk_size_bytes").record(space.diskSizeBytes)
                Gauge(label: "pushtally_database_wal_bytes").record(space.logBytes)
            }
            if let recent = try? await counted {
                Gauge(label: "pushtally_recent_pushes_sent").record(recent.sent)
                Gauge(label: "pushtally_recent_pushes_displayed").record(recent.displayed)
            }
            var buffer: [UInt8] = []
            ServerMetrics.registry.emit(into: &buffer)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
    }
}

/// Counts every request by route, method and status (`pushtally_http_requests_total`), errors included.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            record(request, context, status: response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            record(request, context, status: error.status.code)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int) {
        Counter(
            label: "pushtally_http_requests_total",
            dimensions: [
                ("route", context.endpointPath ?? "unmatched"), ("method", request.method.rawValue), ("status", String(status)),
            ]
        ).increment()
    }
}
