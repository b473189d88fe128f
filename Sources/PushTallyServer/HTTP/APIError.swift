import Foundation
import Hummingbird
import PushTallyCore

/// Every error the API answers with: a status and `{"error": code, "message": text, "field": name}`.
public struct APIError: HTTPResponseError, Sendable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var field: String?
    /// The line of a file the error is in (an FCM export's bad row), when it is about one.
    public var line: Int?
    /// Extra headers such as `Retry-After` or `Allow`.
    public var headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, field: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers
    }

    /// A client's mistake in a field or a body, as a 400 unless said otherwise.
    public init(_ error: FieldError, status: HTTPResponse.Status = .badRequest) {
        self.init(status, error.code, error.message, field: error.field)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: responseHeaders, body: .init(byteBuffer: body))
    }

    /// The headers of the error's answer: its own (`Retry-After`, `Allow`) and the JSON content type.
    var responseHeaders: HTTPFields {
        var headers = self.headers
        headers[.contentType] = jsonContentType
        return headers
    }

    /// `{"error": ..., "field": ..., "message": ...}`.
    var body: ByteBuffer {
        struct Body: Encodable {
            let error: String
            let message: String
            let field: String?
            let line: Int?
        }
        return (try? encodeJSON(Body(error: code, message: message, field: field, line: line))) ?? ByteBuffer()
    }

    static func unavailable(_ message: String, retryAfter: Int = 1) -> APIError {
        APIError(.serviceUnavailable, "unavailable", message, headers: [.retryAfter: String(retryAfter)])
    }
}
