import Foundation
import Hummingbird

/// The `Content-Type` of every JSON answer.
let jsonContentType = "application/json; charset=utf-8"

/// A small JSON body (acknowledgements, summaries, errors): sorted keys, so answers are stable.
func encodeJSON(_ value: some Encodable) throws -> ByteBuffer {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return ByteBuffer(data: try encoder.encode(value))
}

extension Response {
    /// A JSON response from an `Encodable` value (small bodies: acknowledgements and summaries).
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(status: status, headers: [.contentType: jsonContentType], body: .init(byteBuffer: try encodeJSON(value)))
    }
}


/// A path parameter, percent-decoded (Hummingbird hands them over as sent).
func pathParameter(_ name: String, _ context: some RequestContext) throws -> String {
    guard let raw = context.parameters.get(name), let decoded = raw.removingPercentEncoding else {
        throw APIError(.badRequest, "bad_path", "\(name) in the path is not valid percent-encoded UTF-8", field: name)
    }
    return decoded
}
