import Foundation
import PushTallyCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A typed client of a PushTally server's HTTP API, sending and reading the same request and answer types the
/// server uses (``ReportRequest``, ``ReportTable``, ``PushRegistration``, ``PushBatchAnswer``,
/// ``APIErrorBody``). `pushtally --server URL` goes through it.
///
/// ```swift
/// let client = PushTallyAPIClient(baseURL: URL(string: "http://127.0.0.1:8080")!, token: readToken)
/// let campaigns = try await client.report(ReportRequest(.campaigns))
/// ```
public struct PushTallyAPIClient: Sendable {
    /// The server, e.g. `http://127.0.0.1:8080` (a path prefix is kept, for a server behind a proxy).
    public let baseURL: URL
    /// A bearer token of the role the calls need (read for reports, backend for pushes).
    public let token: String?

    public init(baseURL: URL, token: String?) {
        self.baseURL = baseURL
        self.token = token
    }

    /// A report rendered by the server, byte for byte: CSV (optionally with a byte order mark) or JSON.
    public func reportText(_ request: ReportRequest, json: Bool, bom: Bool = false) async throws -> String {
        String(decoding: try await fetchReport(request, json: json, bom: bom), as: UTF8.self)
    }

    /// A report's table, decoded from the server's JSON with the report's own column types.
    public func report(_ request: ReportRequest) async throws -> ReportTable {
        try ReportTable(json: try await fetchReport(request, json: true, bom: false), shape: try request.emptyTable())
    }

    /// Registers pushes through `POST /v1/pushes` (NDJSON). A batch whose every record was refused is still an
    /// answer (the server says 400 and why, record by record), not an error.
    public func register(_ pushes: [PushRegistration]) async throws -> PushBatchAnswer {
        var request = URLRequest(url: url("/v1/pushes"))
        request.httpMethod = "POST"
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        request.httpBody = Data(try pushes.map { String(decoding: try encoder.encode($0), as: UTF8.self) }.joined(separator: "\n").utf8)
        let (status, data) = try await exchange(request)
        if status != 400 { try Self.check(status, data) }
        do {
            return try JSONDecoder().decode(PushBatchAnswer.self, from: data)
        } catch {
            try Self.check(status, data)
            throw error
        }
    }

    private func fetchReport(_ report: ReportRequest, json: Bool, bom: Bool) async throws -> Data {
        var (path, query) = report.httpPath()
        query.append(URLQueryItem(name: "format", value: json ? "json" : "csv"))
        if bom { query.append(URLQueryItem(name: "bom", value: "1")) }
        var components = URLComponents(url: url(path), resolvingAgainstBaseURL: false)!
        // Encoded as a browser encodes a form, so a `+` or `&` in a campaign name reads back as itself.
        components.percentEncodedQuery = FormBody.encode(query.map { ($0.name, $0.value ?? "") })
        let (status, data) = try await exchange(URLRequest(url: components.url!))
        try Self.check(status, data)
        return data
    }

    /// `path` (already percent-encoded) under the base URL's own path.
    func url(_ path: String) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        var base = components.percentEncodedPath
        while base.hasSuffix("/") { base.removeLast() }
        components.percentEncodedPath = base + path
        return components.url!
    }

    func exchange(_ request: URLRequest) async throws -> (status: Int, data: Data) {
        let (status, data, _) = try await exchangeWithResponse(request)
        return (status, data)
    }

    /// The answer with its response, for the fields a call reads besides the body.
    func exchangeWithResponse(_ request: URLRequest) async throws -> (status: Int, data: Data, response: HTTPURLResponse?) {
        var request = request
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data, response as? HTTPURLResponse)
        } catch {
            throw PushTallyAPIError.unreachable(url: request.url?.absoluteString ?? baseURL.absoluteString, reason: error.localizedDescription)
        }
    }

    static func check(_ status: Int, _ data: Data) throws {
        guard !(200..<300).contains(status) else { return }
        let body = try? JSONDecoder().decode(APIErrorBody.self, from: data)
        throw PushTallyAPIError.refused(status: status, body: body, text: String(decoding: data.prefix(200), as: UTF8.self))
    }
}

/// Why a call to the server failed.
public enum PushTallyAPIError: Error, Sendable, CustomStringConvertible {
    /// No answer: the server is down, the address wrong, the network out.
    case unreachable(url: String, reason: String)
    /// The server answered with an error status and, normally, a JSON error body.
    case refused(status: Int, body: APIErrorBody?, text: String)

    public var description: String {
        switch self {
        case .unreachable(let url, let reason): "cannot reach \(url): \(reason)"
        case .refused(let status, let body, let text): "server answered \(status): \(body?.message ?? text)"
        }
    }
}
