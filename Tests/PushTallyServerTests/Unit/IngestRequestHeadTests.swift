import HTTPTypes
import NIOHTTP1
import Testing

@testable import PushTallyServer

/// What the fast path reads of SwiftNIO's HTTP/1 head, which it sees before Hummingbird's codec does.
@Suite struct IngestRequestHeadTests {
    static func head(_ method: HTTPMethod = .POST, _ uri: String = "/v1/receipts", _ headers: [(String, String)]) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: method, uri: uri, headers: HTTPHeaders(headers))
    }

    @Test func thePipelinesFieldsAreKeptInAnyCaseEveryOccurrenceInOrderAndTheRestLeftBehind() {
        let fields = Self.head(.POST, "/v1/receipts", [
            ("Host", "collector"), ("CONTENT-TYPE", "application/x-www-form-urlencoded"), ("content-length", "11"),
            ("Content-Encoding", "gzip"), ("authorization", "Bearer pt_x"), ("X-Forwarded-For", "10.0.0.1"),
            ("x-forwarded-for", "10.0.0.2"), ("Connection", "close"), ("User-Agent", "curl/8"), ("Expect", "100-continue"),
            ("Content-Typo", "no"),
        ]).ingestFields
        #expect(fields[.contentType] == "application/x-www-form-urlencoded")
        #expect(fields[.contentLength] == "11")
        #expect(fields[.contentEncoding] == "gzip")
        #expect(fields[.authorization] == "Bearer pt_x")
        #expect(fields[values: .xForwardedFor] == ["10.0.0.1", "10.0.0.2"])
        #expect(fields[.connection] == "close")
        #expect(fields[.expect] == "100-continue")
        #expect(!fields.contains { $0.name.canonicalName == "host" })
        #expect(fields[.userAgent] == nil)
        #expect(fields.count == 8)
    }

    @Test func theRouteIsTheMethodAndPathItsQueryAside() {
        #expect(Self.head(.POST, "/v1/receipts?key=k", []).ingestRoute?.0 == .receipts)
        #expect(Self.head(.POST, "/v1/actions", []).ingestRoute?.0 == .actions)
        #expect(Self.head(.GET, "/v1/receipts", []).ingestRoute == nil)
        #expect(Self.head(.POST, "/v1/receipts/", []).ingestRoute == nil)
        // An absolute-form target is left to the router, which takes every ingest route too.
        #expect(Self.head(.POST, "http://collector/v1/receipts", []).ingestRoute == nil)
    }

    @Test func expectContinueIsReadInAnyCase() {
        #expect(Self.head(.POST, "/v1/receipts", [("expect", "100-Continue")]).expectsContinue)
        #expect(!Self.head(.POST, "/v1/receipts", [("Expect", "something")]).expectsContinue)
        #expect(!Self.head(.POST, "/v1/receipts", []).expectsContinue)
    }
}
