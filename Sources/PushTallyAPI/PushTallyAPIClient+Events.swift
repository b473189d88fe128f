import Foundation
import PushTallyCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The event feed through the server (`export` or `admin` token): what `pushtally export --server` reads.
extension PushTallyAPIClient: EventFeedReader {
    /// `GET /v1/events?after=…&limit=…`: one page, its end from `PushTally-Cursor`.
    public func eventFeed(after cursor: EventCursor, limit: Int) async throws -> EventFeedPage {
        var components = URLComponents(url: url("/v1/events"), resolvingAgainstBaseURL: false)!
        components.percentEncodedQuery = FormBody.encode([("after", cursor.text), ("limit", String(limit))])
        var request = URLRequest(url: components.url!)
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Accept")
        let (status, data, response) = try await exchangeWithResponse(request)
        let end = response?.value(forHTTPHeaderField: "PushTally-Cursor")
        try Self.check(status, data)
        let events = try data.split(separator: UInt8(ascii: "\n")).map { line in
            try JSONDecoder().decode(ExportedEvent.self, from: Data(line))
        }
        let last = try events.last.flatMap(\.cursor).map { try EventCursor(text: $0, field: "cursor") }
        return EventFeedPage(events: events, cursor: try end.map { try EventCursor(text: $0, field: "PushTally-Cursor") } ?? last ?? cursor)
    }
}
