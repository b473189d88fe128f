import Foundation
import Hummingbird
import PushTallyCore

/// A request's query parameters, decoded as browsers encode them; the route already refused unknown and
/// repeated ones (``APIRoute/checkQuery(_:)``).
struct QueryValues {
    private var values: [String: String] = [:]

    init(_ request: Request) throws(FieldError) {
        guard let query = request.uri.query, !query.isEmpty else { return }
        for (name, value) in try FormBody.pairs(query[...]) { values[name] = value }
    }

    subscript(name: String) -> String? { values[name] }

    /// `limit`, a whole number from 1 to `maximum`.
    func limit(default fallback: Int, maximum: Int) throws(FieldError) -> Int {
        guard let text = values["limit"] else { return fallback }
        guard let limit = Int(text), (1...maximum).contains(limit) else {
            throw FieldError("bad_value", "limit must be a whole number from 1 to \(maximum)", field: "limit")
        }
        return limit
    }
}

/// A JSON request body: refuses other media types with 415.
func readJSON(_ request: Request, reader: BodyReader) async throws -> Data {
    let type = mediaType(request.headers[.contentType])
    guard type == nil || type == "application/json" else {
        throw APIError(.unsupportedMediaType, "unsupported_media_type", "the body must be application/json")
    }
    return Data(try await reader.read(request).readableBytesView)
}

extension Response {
    /// A JSON response whose text is already built (``JSONText``).
    static func jsonText(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: jsonContentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
