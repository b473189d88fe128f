import HTTPTypes
import NIOHTTP1
import PushTallyCore

/// What the fast path reads of a request head, straight from SwiftNIO's HTTP/1 head.
///
/// The fast path sits before Hummingbird's HTTP/1-to-HTTPTypes codec: converting every head (each field name
/// parsed and validated, the target split into its parts) and every answer is work an ingest request does not
/// need. It needs only its method, its target and the handful of fields the pipeline reads.
extension HTTPRequestHead {
    /// The ingest route this head is for (method and path, its query aside), if it is one.
    var ingestRoute: (APIRoute, EventKind)? {
        IngestPipeline.route(methodName: method.rawValue, target: uri)
    }

    /// Whether the client waits for `100 Continue` before sending the body (curl does for large uploads).
    var expectsContinue: Bool {
        guard let expect = headers.first(name: "expect") else { return false }
        return expect.lowercased() == "100-continue"
    }

    /// The fields ``IngestPipeline`` and the connection rules read (every occurrence, in order, as
    /// Hummingbird's codec would have carried them); the rest stay behind.
    var ingestFields: HTTPFields {
        var fields = HTTPFields()
        for (name, value) in headers {
            guard let known = Self.ingestFieldNames.first(where: { Self.isName(name, $0.canonicalName) }) else { continue }
            fields.append(HTTPField(name: known, value: value))
        }
        return fields
    }

    private static let ingestFieldNames: [HTTPField.Name] = [
        .contentType, .contentLength, .contentEncoding, .authorization, .connection, .expect, .xForwardedFor, .origin,
    ]
}
