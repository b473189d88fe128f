import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PushTallyCore
import ServiceLifecycle

/// `GET /v1/events`: stored events in commit order as NDJSON, for a warehouse (`export` or `admin` tokens).
///
/// Each line is an ``ExportedEvent`` with its `event_id`, `type` and `cursor`; a reader passes the last
/// cursor it kept as `after` and gets every event committed after it, at least once and never skipped
/// (``EventCursor``). Without `follow` the answer is one page, whole, its end in `PushTally-Cursor`. With
/// `follow=true` it stays open: events are written as they commit, and a heartbeat line
/// (`{"cursor":…,"heartbeat":…}`) when none came for `heartbeat` seconds (or half the server's idle timeout,
/// if that is sooner), so a pipeline can tell a quiet stream from a dead one. A graceful shutdown ends the stream whole; the reader reconnects with its cursor.
struct EventFeedController<Context: RequestContext>: Sendable {
    let store: any EventFeedReader
    let authorizer: Authorizer
    var deadlines = StoreDeadlines()
    /// How long a following stream waits before it looks again when it has written every event committed.
    var followPoll: Duration = .milliseconds(250)
    /// The server's idle timeout (`serve --idle-timeout`): a stream quiet for that long would be closed as an
    /// idle connection, so it writes a heartbeat by half of it at the latest, whatever `heartbeat` asks.
    var idleTimeout: Duration = .seconds(30)

    static var defaultHeartbeatSeconds: Int { 15 }
    static var maximumHeartbeatSeconds: Int { 300 }

    func register(on routes: RouteTable<Context>) {
        routes.on(.eventFeed) { request, _ in try await self.feed(request) }
    }

    func feed(_ request: Request) async throws -> Response {
        // The token before anything else: a caller without one learns nothing, not even what a cursor looks like.
        let reader = try await authorizer.requireIdentified(.export, request)
        let query = try QueryValues(request)
        let limit = try query.limit(default: EventFeedPage.defaultLimit, maximum: EventFeedPage.maximumLimit)
        let cursor = try query["after"].map { text throws(FieldError) in try EventCursor(text: text) } ?? .start
        let follow = try Self.flag(query["follow"], "follow")
        let heartbeat = try Self.heartbeatSeconds(query["heartbeat"])
        let gzip = ReportResponse.acceptsGzip(request)
        // The first page is read before the answer begins, so a database that does not answer gets its 503.
        let first = try await page(after: cursor, limit: limit, reader: reader)
        var headers: HTTPFields = [
            .contentType: "application/x-ndjson; charset=utf-8", .eventCursor: first.cursor.text, .vary: "Accept-Encoding",
        ]
        if gzip { headers[.contentEncoding] = "gzip" }
        guard follow else {
            var body = ByteBuffer(data: try Self.lines(first))
            if gzip { body = try body.compress(with: .gzip()) }
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
        }
        headers[.eventCursor] = nil
        let controller = self
        let body = ResponseBody { sink in
            var output = try PageOutput(sink, gzip: gzip)
            let beat = min(Duration.seconds(heartbeat), controller.idleTimeout / 2)
            try await controller.stream(from: first, limit: limit, heartbeat: beat, reader: reader, to: &output)
            try await output.finish()
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Writes pages as they commit until the client goes away (the write throws) or the server shuts down.
    private func stream(
        from first: EventFeedPage, limit: Int, heartbeat: Duration, reader: String, to output: inout PageOutput
    ) async throws {
        let clock = ContinuousClock()
        var page = first
        var lastWrite = clock.now
        while true {
            if !page.events.isEmpty {
                try await output.write(try Self.lines(page), flush: true)
                lastWrite = clock.now
            } else if clock.now - lastWrite >= heartbeat {
                try await output.write(try Self.heartbeatLine(page.cursor), flush: true)
                lastWrite = clock.now
            }
            if page.events.count < limit {
                // A shutdown cancels the wait: the stream then ends whole, after the last event written.
                try? await cancelWhenGracefulShutdown { try await Task.sleep(for: followPoll) }
                if Task.isShuttingDownGracefully || Task.isCancelled { return }
            }
            page = try await self.page(after: page.cursor, limit: limit, reader: reader)
        }
    }

    /// A page within the request's deadline, noted in the reader's metrics.
    private func page(after cursor: EventCursor, limit: Int, reader: String) async throws -> EventFeedPage {
        let page = try await StoreDeadline.run(deadlines.request) { [store] in try await store.eventFeed(after: cursor, limit: limit) }
        ServerMetrics.feedRead(reader: reader, page: page, limit: limit, nowMillis: StoreConfiguration.systemClock())
        return page
    }

    private static func lines(_ page: EventFeedPage) throws -> Data {
        var data = Data()
        for event in page.events { data.append(contentsOf: try ExportFormat.line(event).utf8) }
        return data
    }

    private static func heartbeatLine(_ cursor: EventCursor) throws -> Data {
        let line = Heartbeat(cursor: cursor.text, heartbeat: Timestamp.iso8601(millis: StoreConfiguration.systemClock()))
        return Data(try ExportFormat.line(line).utf8)
    }

    /// The line a following stream writes when no event came: where the stream stands, and when.
    private struct Heartbeat: Encodable {
        let cursor: String
        let heartbeat: String
    }

    private static func flag(_ text: String?, _ field: String) throws(FieldError) -> Bool {
        switch text {
        case nil, "false": false
        case "true": true
        default: throw FieldError("bad_value", "\(field) must be true or false", field: field)
        }
    }

    private static func heartbeatSeconds(_ text: String?) throws(FieldError) -> Int {
        guard let text else { return defaultHeartbeatSeconds }
        guard let seconds = Int(text), (1...maximumHeartbeatSeconds).contains(seconds) else {
            throw FieldError(
                "bad_value", "heartbeat must be a whole number of seconds from 1 to \(maximumHeartbeatSeconds)", field: "heartbeat")
        }
        return seconds
    }
}

extension HTTPField.Name {
    /// The event feed page's end: the cursor to pass as `after` for the events after it.
    static let eventCursor = HTTPField.Name("PushTally-Cursor")!
}
