import Testing

@testable import PushTallyCore

/// Text that is not text, named before a decoder sees it.
@Suite struct JSONTextCheckTests {
    func problem(_ bytes: [UInt8]) -> FieldError? {
        bytes.withUnsafeBytes { JSONTextCheck.problem(in: $0, of: "the body") }
    }

    func problem(_ text: String) -> FieldError? { problem(Array(text.utf8)) }

    @Test func validTextHasNoProblem() {
        for text in [
            #"{"push_id":"新年促销 🎉"}"#, #"{"push_id":"\ud83c\udf89"}"#, #"{"a":"\\u0000"}"#, #"{"a":"\"quoted\" \\ \/"}"#,
            #"[{"push_id":"p","ts":1e309}]"#, #"{"a":"\u00e9\ud800\udc00"}"#,
        ] {
            #expect(problem(text) == nil, "\(text)")
        }
    }

    @Test func bytesThatAreNotUTF8() {
        #expect(problem(Array(#"{"push_id":"a"#.utf8) + [0xFF] + Array(#""}"#.utf8))?.code == "invalid_utf8")
        #expect(problem([0xC0, 0x80])?.code == "invalid_utf8", "an overlong NUL")
        #expect(problem([0xED, 0xA0, 0x80])?.code == "invalid_utf8", "an encoded surrogate")
    }

    @Test func loneSurrogatesNameTheirField() {
        for text in [
            #"{"push_id":"a\ud800"}"#, #"{"push_id":"\udc00"}"#, #"{"push_id":"\ud800\ud800"}"#, #"{"push_id":"\ud800x"}"#,
            #"{"push_id":"\ud800\n"}"#, #"{"push_id":"\uD800"}"#,
        ] {
            let found = problem(text)
            #expect(found?.code == "invalid_utf8", "\(text)")
            #expect(found?.field == "push_id", "\(text)")
        }
    }

    @Test func rawControlCharactersNameTheirField() {
        for byte: UInt8 in [0x00, 0x01, 0x0A, 0x1F] {
            let found = problem(Array(#"{"device_id":"d","push_id":"a"#.utf8) + [byte] + Array(#""}"#.utf8))
            #expect(found?.code == "invalid_characters", "\(byte)")
            #expect(found?.field == "push_id", "\(byte)")
        }
    }
}
