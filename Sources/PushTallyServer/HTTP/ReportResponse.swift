import CompressNIO
import Foundation
import HTTPTypes
import Hummingbird
import PushTallyCore

/// Renders a report table as JSON or CSV, as the request asks, gzip-compressed when the client accepts it.
struct ReportResponse {
    /// `?format=json|csv` wins; otherwise `Accept: text/csv` picks CSV; JSON by default.
    static func format(_ query: ReportQuery, request: Request) -> ReportQuery.Format {
        if let format = query.format { return format }
        let accept = request.headers[.accept]?.lowercased() ?? ""
        return accept.contains("text/csv") ? .csv : .json
    }

    static func make(
        _ table: ReportTable, name: String, query: ReportQuery, request: Request,
        readFrom: (source: ReadSource, lagSeconds: Double) = (.primary, 0), now: Date = Date()
    ) throws -> Response {
        var headers: HTTPFields = [:]
        headers[.readSource] = readFrom.source.rawValue
        headers[.dataLag] = ReportReadRouter.secondsText(readFrom.lagSeconds)
        let data: Data
        switch format(query, request: request) {
        case .json:
            data = JSONRenderer.render(table)
            headers[.contentType] = "application/json; charset=utf-8"
        case .csv:
            data = Data(CSVRenderer.render(table, bom: query.bom).utf8)
            headers[.contentType] = "text/csv; charset=utf-8; header=present"
            let day = now.formatted(.iso8601.year().month().day())
            headers[.contentDisposition] = "attachment; filename=\"pushtally-\(name)-\(day).csv\""
        }
        headers[.vary] = "Accept, Accept-Encoding"
        var buffer = ByteBuffer(data: data)
        if acceptsGzip(request) {
            buffer = try buffer.compress(with: .gzip())
            headers[.contentEncoding] = "gzip"
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
    }

    static func acceptsGzip(_ request: Request) -> Bool {
        guard let header = request.headers[.acceptEncoding]?.lowercased() else { return false }
        return header.split(separator: ",").contains { entry in
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            return parts.first == "gzip" && !parts.dropFirst().contains("q=0")
        }
    }
}

extension HTTPField.Name {
    /// Which database answered a report: `replica` or `primary`.
    static let readSource = HTTPField.Name("PushTally-Read-Source")!
    /// How many seconds the answer's data may trail the primary (`0` from the primary).
    static let dataLag = HTTPField.Name("PushTally-Data-Lag")!
}
