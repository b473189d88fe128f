import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import PushTallyCore

/// Renders a report table as JSON or CSV, as the request asks, gzip-compressed when the client accepts it.
struct ReportResponse {
    /// `?format=json|csv` wins; otherwise `Accept` picks by quality value (`text/csv;q=0, application/json` is
    /// JSON); JSON when there is no `Accept`, or when it rates neither acceptable (RFC 9110 §12.1 lets a server
    /// answer as if unnegotiated rather than 406, and every client reads the error bodies' JSON).
    static func format(_ query: ReportQuery, request: Request) -> ReportQuery.Format {
        if let format = query.format { return format }
        let accept = request.headers[values: .accept].joined(separator: ",")
        guard !accept.isEmpty else { return .json }
        return ContentNegotiation.mediaType(["application/json", "text/csv"], accept: accept) == "text/csv" ? .csv : .json
    }

    static func make(
        _ table: ReportTable, name: String, query: ReportQuery, request: Request,
        readFrom: (source: ReadSource, lagSeconds: Double) = (.primary, 0), now: Date = Date()
    ) throws -> Response {
        let format = format(query, request: request)
        var headers = headers(format, name: name, readFrom: readFrom, now: now)
        let data = switch format {
        case .json: JSONRenderer.render(table)
        case .csv: Data(CSVRenderer.render(table, bom: query.bom).utf8)
        }
        var buffer = ByteBuffer(data: data)
        if acceptsGzip(request) {
            buffer = try buffer.compress(with: .gzip())
            headers[.contentEncoding] = "gzip"
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
    }

    /// A report answer's fields but its length and encoding: its type (a CSV as a download named for the report
    /// and the day), where it was read from, and what it varies by.
    static func headers(
        _ format: ReportQuery.Format, name: String, readFrom: (source: ReadSource, lagSeconds: Double), now: Date = Date()
    ) -> HTTPFields {
        var headers: HTTPFields = [:]
        headers[.readSource] = readFrom.source.rawValue
        headers[.dataLag] = ReportReadRouter.secondsText(readFrom.lagSeconds)
        switch format {
        case .json:
            headers[.contentType] = "application/json; charset=utf-8"
        case .csv:
            headers[.contentType] = "text/csv; charset=utf-8; header=present"
            let day = now.formatted(.iso8601.year().month().day())
            headers[.contentDisposition] = "attachment; filename=\"pushtally-\(name)-\(day).csv\""
        }
        headers[.vary] = "Accept, Accept-Encoding"
        return headers
    }

    /// Whether the client rates gzip (or `x-gzip`, or `*`) above 0 and at least as high as no compression.
    static func acceptsGzip(_ request: Request) -> Bool {
        let acceptEncoding = request.headers[values: .acceptEncoding].joined(separator: ",")
        return !acceptEncoding.isEmpty && ContentNegotiation.prefersGzip(acceptEncoding: acceptEncoding)
    }
}

extension HTTPField.Name {
    /// Which database answered a report: `replica` or `primary`.
    static let readSource = HTTPField.Name("PushTally-Read-Source")!
    /// How many seconds the answer's data may trail the primary (`0` from the primary).
    static let dataLag = HTTPField.Name("PushTally-Data-Lag")!
}
