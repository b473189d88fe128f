import Foundation
import Testing

@testable import PushTallyCore

/// The fast scanner against Foundation's decoder, the reference: wherever the scanner answers, it must answer
/// what the decoder answers, and the whole-body decoders must give identical events and errors.
@Suite struct FlatJSONScannerTests {
    @Test func readsTheCommonShapesItself() throws {
        let line = #"{"push_id":"fresh-1","device_id":"t1","receipt_id":"t1-1-1","ts":1795000000123,"platform":null,"x":false}"#
        let event = try #require(scan(line))
        #expect(event.fields == [
            "push_id": .string("fresh-1"), "device_id": .string("t1"), "receipt_id": .string("t1-1-1"),
            "ts": .number(1_795_000_000_123),
        ])
        #expect(scan(#" {"push_id" : true , "ts":-12} "#)?.fields == ["push_id": .unsupported("boolean true"), "ts": .number(-12)])
        #expect(scan("{}")?.fields == [:])
        #expect(Array(#"[{"push_id":"a"} , {}]"#.utf8).withUnsafeBytes { FlatJSONScanner.events(array: $0) }?.count == 2)
    }

    @Test func leavesEverythingUnusualToTheDecoder() {
        for text in [
            #"{"push_id":"a\u0041"}"#, #"{"push_id":"é"}"#, "\u{FEFF}{}", #"{"push_id":1.5}"#, #"{"ts":1e3}"#,
            #"{"ts":-0}"#, #"{"ts":1234567890123456}"#, #"{"push_id":"a","push_id":"b"}"#, #"{"x":1,"x":2}"#,
            #"{"push_id":{}}"#, #"{"push_id":[1]}"#, #"{"push_id":"a",}"#, #"{"push_id":01}"#, #"{"a":"b"} x"#,
        ] {
            #expect(scan(text) == nil, "\(text)")
        }
    }

    /// Keys this server ignores are told apart by a hash set of their bytes, not by comparing each with every one
    /// before it: an object of many keys of one length is read in one pass, and a repeat far apart still seen.
    @Test func manyUnknownKeysAreReadAndARepeatAmongThemIsStillSeen() {
        let keys = (0..<50_000).map { String(format: "\"k%06d\":1", $0) }
        let many = "{" + keys.joined(separator: ",") + #","push_id":"many"}"#
        #expect(scan(many)?.fields == ["push_id": .string("many")])
        let repeated = "{" + keys.joined(separator: ",") + #","k000000":2,"push_id":"many"}"#
        #expect(scan(repeated) == nil, "a repeated unknown key goes to the decoder, which decides")
    }

    @Test func agreesWithTheDecoderOnEdgeCases() {
        for text in Self.edgeCases { expectAgreement(Array(text.utf8)) }
        for bytes: [UInt8] in [[0xEF, 0xBB, 0xBF, 0x7B, 0x7D], [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D], [0x7B, 0x00, 0x7D]] {
            expectAgreement(bytes)
        }
    }

    @Test func agreesWithTheDecoderOnGeneratedAndMutatedObjects() {
        var random = SplitMix64(seed: 20)
        for _ in 0..<4_000 {
            var bytes = Array(Self.generatedObject(&random).utf8)
            expectAgreement(bytes)
            for _ in 0..<Int(random.next() % 4) { Self.mutate(&bytes, &random) }
            expectAgreement(bytes)
        }
    }

    @Test func agreesWithTheDecoderOnRandomBytes() {
        var random = SplitMix64(seed: 2020)
        let alphabet = Array(#"{}[]":,\ 0123456789-.eE+tfnrulsa_idpushx"#.utf8) + [0x00, 0x09, 0x0A, 0x0D, 0x7F, 0x80, 0xC3, 0xA9, 0xFF]
        for _ in 0..<4_000 {
            let count = Int(random.next() % 40)
            var bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if random.next() % 2 == 0 { bytes.insert(UInt8(ascii: "{"), at: 0) }
            expectAgreement(bytes)
        }
    }

    /// The scanner answers only what the decoder answers; the whole-body readers (JSON object, JSON array,
    /// NDJSON) match the reference readers event for event and error for error.
    func expectAgreement(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let text = String(decoding: bytes, as: UTF8.self)
        if let fast = bytes.withUnsafeBytes({ FlatJSONScanner.event($0) }) {
            #expect((try? JSONDecoder().decode(RawEvent.self, from: Data(bytes))) == fast, "\(text)", sourceLocation: sourceLocation)
        }
        #expect(Self.body { try EventBody.json(Data(bytes)) } == Self.body { try ReferenceDecoder.json(Data(bytes)) },
                "\(text)", sourceLocation: sourceLocation)
        let array = Data("[".utf8 + bytes + ",".utf8 + bytes + "]".utf8)
        #expect(Self.body { try EventBody.json(array) } == Self.body { try ReferenceDecoder.json(array) },
                "[\(text)]", sourceLocation: sourceLocation)
        let lines = Data(bytes + "\n\r\n".utf8 + bytes + "\n \t\n".utf8 + bytes)
        #expect(Self.body { EventBody.ndjson(lines) } == Self.body { ReferenceDecoder.ndjson(lines) },
                "\(text)", sourceLocation: sourceLocation)
    }

    func scan(_ text: String) -> RawEvent? {
        Array(text.utf8).withUnsafeBytes { FlatJSONScanner.event($0) }
    }

    /// An ``EventBody`` or its error in a comparable form.
    enum Decoded: Equatable {
        case single(RawEvent)
        case batch([Result<RawEvent, FieldError>])
        case failed(FieldError?)
    }

    static func body(_ decode: () throws -> EventBody) -> Decoded {
        do {
            switch try decode() {
            case .single(let event): return .single(event)
            case .batch(let items): return .batch(items)
            }
        } catch {
            return .failed(error as? FieldError)
        }
    }
}
