import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@testable import PushTallyKit

/// One request a client made and what became of it.
struct RecordedExchange: Sendable {
    var path: String
    var contentType: String?
    var body: Data
    /// The collector's status; nil when no collector answered.
    var status: Int?
    /// The collector's answer body.
    var answer: Data
    /// False when the answer was kept from the client (it saw a lost connection instead).
    var answered: Bool

    /// The posted NDJSON lines as objects.
    func objects() throws -> [[String: Any]] {
        try lines().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    func lines() -> [String] {
        String(decoding: body, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The collector's batch answer (`200 {"accepted","duplicates","rejected"}`).
    func batchAnswer() throws -> BatchAnswer {
        try JSONDecoder().decode(BatchAnswer.self, from: answer)
    }
}

struct BatchAnswer: Decodable, Equatable {
    struct Rejected: Decodable, Equatable { let index: Int }
    let accepted: Int
    let duplicates: Int
    let rejected: [Rejected]
}

/// Sits under a client's URLSession and records every request it makes, per endpoint (scheme, host and
/// port): the tests read what went on the wire, and what the collector answered, without a proxy.
final class RecordingURLProtocol: URLProtocol {
    enum Behaviour: Sendable {
        /// Answers like a collector that takes every event (`200` and a batch answer), after answering `503`
        /// to the first `failingFirst` requests; `404` to a path in `missing`, like a collector without it.
        case accept(failingFirst: Int, missing: Set<String> = [])
        /// Forwards to the real collector at the endpoint; the first `losingFirst` answers are kept from the
        /// client, which sees a lost connection after the collector committed the events: a lost answer.
        case forward(losingFirst: Int)
    }

    /// A URLSession whose requests to `endpoint` are recorded and handled as `behaviour` says.
    static func session(for endpoint: URL, _ behaviour: Behaviour) -> URLSession {
        registry.register(key(endpoint), behaviour)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [RecordingURLProtocol.self]
        return URLSession(configuration: configuration)
    }

    /// What was posted to `endpoint` so far, in order.
    static func exchanges(for endpoint: URL) -> [RecordedExchange] {
        registry.exchanges(key(endpoint))
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
    override func stopLoading() {}

    override func startLoading() {
        guard let url = request.url, let (behaviour, turn) = Self.registry.nextTurn(Self.key(url)) else {
            client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
            return
        }
        let body = Self.body(of: request)
        var exchange = RecordedExchange(
            path: url.path, contentType: request.value(forHTTPHeaderField: "Content-Type"), body: body, status: nil,
            answer: Data(), answered: true)
        switch behaviour {
        case .accept(let failingFirst, let missing):
            let lines = exchange.lines().count
            let (status, answer) =
                if missing.contains(url.path) {
                    (404, #"{"error":"not_found"}"#)
                } else if turn < failingFirst {
                    (503, #"{"error":"unavailable"}"#)
                } else {
                    (200, #"{"accepted":\#(lines),"duplicates":0,"rejected":[]}"#)
                }
            exchange.status = status
            exchange.answer = Data(answer.utf8)
            Self.registry.record(Self.key(url), exchange)
            Self.answer(UncheckedProtocol(self), exchange)
        case .forward(let losingFirst):
            var outbound = URLRequest(url: url)
            outbound.httpMethod = request.httpMethod
            outbound.allHTTPHeaderFields = request.allHTTPHeaderFields
            outbound.httpBody = body
            let handle = UncheckedProtocol(self)
            let sent = exchange
            let forwarded = outbound
            // Not from here: on Linux, making a task waits for the queue that is running this very call.
            DispatchQueue.global().async {
                URLSession.shared.dataTask(with: forwarded) { data, response, _ in
                    var exchange = sent
                    exchange.status = (response as? HTTPURLResponse)?.statusCode
                    exchange.answer = data ?? Data()
                    exchange.answered = exchange.status != nil && turn >= losingFirst
                    Self.registry.record(Self.key(url), exchange)
                    Self.answer(handle, exchange)
                }.resume()
            }
        }
    }

    private static func answer(_ handle: UncheckedProtocol, _ exchange: RecordedExchange) {
        let this = handle.value
        guard exchange.answered, let status = exchange.status, let url = this.request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])
        else {
            this.client?.urlProtocol(this, didFailWithError: URLError(.networkConnectionLost))
            return
        }
        this.client?.urlProtocol(this, didReceive: response, cacheStoragePolicy: .notAllowed)
        this.client?.urlProtocol(this, didLoad: exchange.answer)
        this.client?.urlProtocolDidFinishLoading(this)
    }

    /// The request's body, which Apple's loading system may hand over as a stream.
    private static func body(of request: URLRequest) -> Data {
        if let body = request.httpBody { return body }
        guard let stream = request.httpBodyStream else { return Data() }
        stream.open()
        defer { stream.close() }
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            body.append(buffer, count: count)
        }
        return body
    }

    private static func key(_ url: URL) -> String {
        "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? -1)"
    }

    private static let registry = Registry()

    private final class Registry: @unchecked Sendable {
        private let lock = NSLock()
        private var behaviours: [String: Behaviour] = [:]
        private var turns: [String: Int] = [:]
        private var recorded: [String: [RecordedExchange]] = [:]

        func register(_ key: String, _ behaviour: Behaviour) {
            lock.withLock { behaviours[key] = behaviour }
        }

        /// The endpoint's behaviour and how many requests it had before this one.
        func nextTurn(_ key: String) -> (Behaviour, Int)? {
            lock.withLock {
                guard let behaviour = behaviours[key] else { return nil }
                defer { turns[key, default: 0] += 1 }
                return (behaviour, turns[key, default: 0])
            }
        }

        func record(_ key: String, _ exchange: RecordedExchange) {
            lock.withLock { recorded[key, default: []].append(exchange) }
        }

        func exchanges(_ key: String) -> [RecordedExchange] {
            lock.withLock { recorded[key] ?? [] }
        }
    }
}

/// Hands the loading protocol to URLSession's completion handler, which runs on another queue; URLSession
/// calls a protocol's client from any thread.
private struct UncheckedProtocol: @unchecked Sendable {
    let value: RecordingURLProtocol
    init(_ value: RecordingURLProtocol) { self.value = value }
}

/// A client whose requests go through `RecordingURLProtocol`.
func recordingClient(
    _ store: URL, endpoint: URL, _ behaviour: RecordingURLProtocol.Behaviour,
    configuration: PushTallyClient.Configuration = kitConfiguration()
) throws -> PushTallyClient {
    try PushTallyClient(
        endpoint: endpoint, storeDirectory: store, configuration: configuration,
        session: RecordingURLProtocol.session(for: endpoint, behaviour))
}

/// An endpoint of its own for one test's stand-in collector (nothing resolves `.invalid`: no request leaves
/// the process).
func standInEndpoint() -> URL {
    URL(string: "http://collector-\(UUID().uuidString.lowercased()).invalid")!
}
