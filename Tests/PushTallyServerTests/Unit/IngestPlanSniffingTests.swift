import NIOCore
import PushTallyCore
import Testing

@testable import PushTallyServer

/// A body without `Content-Type` (some HTTP stacks drop it) is read by its first byte: JSON when it opens an
/// object or an array, a form otherwise.
@Suite struct IngestPlanSniffingTests {
    private func decode(_ text: String) throws -> EventBody {
        try IngestPlan.decode(ByteBuffer(string: text), contentType: nil)
    }

    private func pushIDs(_ body: EventBody) -> [String?] {
        switch body {
        case .single(let event): [event.value(of: "push_id").flatMap { if case .string(let s) = $0 { s } else { nil } }]
        case .batch(let events): events.map { try? $0.get().value(of: "push_id").flatMap { if case .string(let s) = $0 { s } else { nil } } }
        }
    }

    @Test func aFormAnObjectAndAnArrayAreEachReadAsWhatTheyAre() throws {
        #expect(pushIDs(try decode("push_id=2018001")) == ["2018001"])
        #expect(pushIDs(try decode(#" {"push_id":"a"}"#)) == ["a"])
        #expect(pushIDs(try decode("\r\n[{\"push_id\":\"a\"},{\"push_id\":\"b\"}]")) == ["a", "b"])
        // An escape takes the reference decoder, as with a declared type.
        #expect(pushIDs(try decode(#"{"push_id":"\u00e9"}"#)) == ["é"])
    }

    @Test func brokenBodiesAreRefusedAsWithADeclaredType() {
        #expect { try decode("push_id=%zz") } throws: { ($0 as? FieldError)?.code == "malformed_form" }
        #expect { try decode(#"{"push_id":"#) } throws: { ($0 as? FieldError)?.code == "malformed_json" }
    }
}
