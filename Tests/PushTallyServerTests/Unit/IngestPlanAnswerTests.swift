import Foundation
import NIOCore
import PushTallyCore
import Testing

@testable import PushTallyServer

/// The batch answer's bytes: the all-accepted answer is written by hand, and must be what `JSONEncoder` with
/// sorted keys wrote before it (the answer every other batch still gets).
@Suite struct IngestPlanAnswerTests {
    struct Reference: Encodable {
        let accepted: Int
        let duplicates: Int
        let rejected: [RejectedItem]
    }

    static func events(_ count: Int) -> [IncomingEvent] {
        (0..<count).map { IncomingEvent(pushID: "p\($0)", kind: .display, deviceID: nil, receiptID: "r\($0)", deviceTimeMillis: nil) }
    }

    @Test(arguments: [(0, 0), (1, 0), (100, 0), (100, 37), (1_000, 1_000)])
    func allAcceptedIsByteForByteTheEncodersAnswer(accepted: Int, duplicates: Int) throws {
        let flags = (0..<accepted).map { $0 < duplicates }
        let response = try IngestPlan.batch(Self.events(accepted), rejected: []).answer.response(duplicates: flags, route: .receipts)
        let expected = try encodeJSON(Reference(accepted: accepted, duplicates: duplicates, rejected: []))
        #expect(response.body == expected)
        #expect(response.status == (accepted == 0 ? .badRequest : .ok))
        #expect(response.headers[.contentType] == jsonContentType)
    }

    @Test func rejectedItemsAreListedAsBefore() throws {
        let rejected = [RejectedItem(index: 2, error: "missing_field", message: "push_id is required and must not be empty", field: "push_id")]
        let response = try IngestPlan.batch(Self.events(2), rejected: rejected).answer.response(duplicates: [true, false], route: .receipts)
        #expect(response.body == (try encodeJSON(Reference(accepted: 2, duplicates: 1, rejected: rejected))))
        let text = response.body.map { String(buffer: $0) }
        #expect(text == #"{"accepted":2,"duplicates":1,"rejected":[{"error":"missing_field","field":"push_id","index":2,"message":"push_id is required and must not be empty"}]}"#)
    }
}
