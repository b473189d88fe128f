import CompressNIO
import Hummingbird
import HummingbirdTesting
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Reports' format and compression picked by quality value (RFC 9110 §12.5), on a real server over loopback:
/// `q=0` is "not acceptable", the more specific range outranks a wider one, and `x-gzip` is gzip.
@Suite struct ContentNegotiationTests {
    @Test func acceptPicksTheFormatByQualityValue() async throws {
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for (accept, csv) in [
                ("text/csv;q=0, application/json", false), ("text/csv", true), ("text/csv, */*", true),
                ("application/json;q=0.5, text/csv", true), ("text/*;q=0.9, application/json;q=0.8", true),
                ("application/json, text/csv", false), ("text/csv, application/json", true), ("*/*", false),
                ("text/csv;q=0", false), ("text/html", false), ("TEXT/CSV;Q=1", true), ("text/csv;charset=utf-8", true),
                ("application/json;q=0, text/csv;q=0.1", true), (",, text/csv", true),
            ] {
                let answer = try await client.send(.get, "/v1/reports/campaigns", headers: fixture.bearer(.read).merging([.accept: accept]))
                #expect(answer.status == .ok, "\(accept)")
                #expect(answer.text.hasPrefix("campaign,") == csv, "\(accept): \(answer.text)")
                #expect(answer.headers[.contentType]?.hasPrefix(csv ? "text/csv" : "application/json") == true, "\(accept)")
            }
            // ?format= wins over Accept.
            let asked = try await client.send(
                .get, "/v1/reports/campaigns?format=json", headers: fixture.bearer(.read).merging([.accept: "text/csv"]))
            #expect(asked.text.hasPrefix("{"))
        }
    }

    @Test func acceptEncodingPicksGzipByQualityValue() async throws {
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let plain = try await client.send(.get, "/v1/reports/campaigns?format=csv", headers: fixture.bearer(.read))
            for (acceptEncoding, gzip) in [
                ("gzip", true), ("x-gzip", true), ("gzip;q=0", false), ("*;q=0", false), ("*", true), ("br, *;q=0.5", false),
                ("identity;q=0, gzip;q=0.5", true), ("gzip;q=0.5, identity", false), ("deflate, br", false),
                ("gzip;q=0, x-gzip", true), ("GZIP", true), ("*, gzip;q=0", false), ("identity", false),
            ] {
                let answer = try await client.send(
                    .get, "/v1/reports/campaigns?format=csv", headers: fixture.bearer(.read).merging([.acceptEncoding: acceptEncoding]))
                #expect((answer.headers[.contentEncoding] == "gzip") == gzip, "\(acceptEncoding): \(answer.headers)")
                var body = answer.body
                let text = gzip ? String(buffer: try body.decompress(with: .gzip())) : answer.text
                #expect(text == plain.text, "\(acceptEncoding)")
            }
        }
    }

    @Test func listElementsAndTheirWeights() {
        #expect(ContentNegotiation.preferences(" , gzip;q=0.5,,identity ; q=1") == [.init(name: "gzip", quality: 0.5), .init(name: "identity", quality: 1)])
        // A weight that is not one leaves its element out, not the field.
        #expect(ContentNegotiation.preferences("gzip;q=high, br;q=2, deflate") == [.init(name: "deflate", quality: 1)])
        #expect(ContentNegotiation.mediaType(["application/json", "text/csv"], accept: "text/csv;q=0, */*;q=0.1") == "application/json")
        #expect(ContentNegotiation.mediaType(["application/json", "text/csv"], accept: "image/png") == nil)
    }
}
