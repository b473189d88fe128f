import Foundation

@testable import PushTallyCore

/// The body readers as they were before the fast scanner, every object through `JSONDecoder`: the reference
/// ``FlatJSONScannerTests`` holds ``EventBody/json(_:)-(Data)`` and ``EventBody/ndjson(_:)-(Data)`` to.
enum ReferenceDecoder {
    static func json(_ data: Data) throws(FieldError) -> EventBody {
        // Before any reader, the scanner or the decoder: not what the scanner is held to.
        if let wide = data.withUnsafeBytes({ JSONTextCheck.wideEncoding($0, of: "the body") }) { throw wide }
        let first = data.first { isJSONWhitespace($0) == false }
        do {
            switch first {
            case UInt8(ascii: "{"):
                if let problem = textProblem(data, "the body") { throw problem }
                return .single(try JSONDecoder().decode(RawEvent.self, from: data))
            case UInt8(ascii: "["):
                if let problem = textProblem(data, "the body") { throw problem }
                return .batch(try JSONDecoder().decode([RawEvent].self, from: data).map { .success($0) })
            case nil:
                throw FieldError("empty_body", "the request body is empty")
            default:
                throw FieldError("malformed_json", "expected a JSON object or an array of objects")
            }
        } catch let error as FieldError {
            throw error
        } catch {
            throw FieldError("malformed_json", "the body is not valid JSON: \(describe(error))")
        }
    }

    static func ndjson(_ data: Data) -> EventBody {
        let decoder = JSONDecoder()
        var events: [Result<RawEvent, FieldError>] = []
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            guard line.contains(where: { !isJSONWhitespace($0) }) else { continue }
            if let problem = textProblem(Data(line), "the line") {
                events.append(.failure(problem))
                continue
            }
            do {
                events.append(.success(try decoder.decode(RawEvent.self, from: Data(line))))
            } catch {
                events.append(.failure(FieldError("malformed_json", "line is not valid JSON: \(describe(error))")))
            }
        }
        return .batch(events)
    }

    /// Text that is not text is refused before any decoder reads it, whichever path reads the rest.
    static func textProblem(_ data: Data, _ what: String) -> FieldError? {
        data.withUnsafeBytes { JSONTextCheck.problem(in: $0, of: what) }
    }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.typeMismatch(_, let context): context.debugDescription
        default: "unreadable"
        }
    }
}

/// A seeded generator, so a failing fuzz case is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension FlatJSONScannerTests {
    /// Texts on the border of the scanner's shape: escapes, surrogates, numbers, literals, nesting, repeats,
    /// whitespace, truncation.
    static let edgeCases: [String] = [
        "{}", " {} ", "\t{\r}\r", "{ }", "{", "}", "[]", "[{}]", "[{},]", "[,]", "[{}", "[{}]]", "[1]", "[\"x\"]", "[null]",
        "[{\"push_id\":1},7,{\"push_id\":true}]", "{\"push_id\":\"x\"}", "{\"push_id\":\"\"}", "{\"\":\"x\"}",
        #"{"push_id":"a\u0041"}"#, #"{"push_id":"\ud83d\ude00"}"#, #"{"push_id":"\ud83d"}"#, #"{"push_id":"\ude00x"}"#,
        #"{"push_id":"\/\b\f\n\r\t\"\\"}"#, #"{"push_id":"\x"}"#, #"{"push_\u0069d":"dup","push_id":"a"}"#,
        #"{"push_id":"a","push_id":"b"}"#, #"{"x":1,"x":2,"push_id":"a"}"#, #"{"x":1,"y":2,"push_id":"a"}"#,
        #"{"push_id":0}"#, #"{"push_id":-0}"#, #"{"push_id":1}"#, #"{"push_id":-1}"#, #"{"push_id":01}"#,
        #"{"push_id":1.0}"#, #"{"push_id":1.}"#, #"{"push_id":.5}"#, #"{"push_id":1e3}"#, #"{"push_id":1E400}"#,
        #"{"push_id":-1e-400}"#, #"{"push_id":123456789012345}"#, #"{"push_id":-999999999999999}"#,
        #"{"push_id":1234567890123456}"#, #"{"push_id":9007199254740993}"#, #"{"push_id":-}"#, #"{"push_id":+1}"#,
        #"{"ts":1795000000123}"#, #"{"ts":"1795000000123"}"#, #"{"ts":1795000000.5}"#, #"{"push_id":true}"#,
        #"{"push_id":false}"#, #"{"push_id":null}"#, #"{"push_id":nul}"#, #"{"push_id":truex}"#, #"{"push_id":True}"#,
        #"{"push_id":{}}"#, #"{"push_id":[]}"#, #"{"x":{"y":[1,{"z":null}]},"push_id":"a"}"#, #"{"push_id":"a",}"#,
        #"{"push_id" "a"}"#, #"{"push_id":"a" "b"}"#, #"{push_id:"a"}"#, #"{'push_id':'a'}"#, #"{"push_id":"a"} x"#,
        #"{"push_id":"a"}{"push_id":"b"}"#, "{\"push_id\":\"tab\tin\"}", "{\"push_id\":\"del\u{7F}\"}", "{\"push_id\":\"nul\u{0}\"}",
        #"{"push_id":"é","device_id":"新"}"#, "{\"push_id\":\"a\"}\u{0B}", "\u{FEFF}{\"push_id\":\"a\"}", "\u{A0}{}",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        "{\"x\":" + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}",
        "{\"push_id\":\"" + String(repeating: "p", count: 300) + "\"}", "null", "true", "7", "\"x\"", "",
    ]

    static let keys = RawEvent.knownFields + ["x", "", "Push_id", "push_id ", "extra_field"]
    static let values = [
        "\"a\"", "\"\"", "\"t1795-1-2-3\"", "\"a b\"", "1", "0", "-7", "123456789012345", "1.5", "-0", "1e2", "true",
        "false", "null", "{}", "[]", "\"\\u00e9\"", "\"é\"", "\"\\n\"", "01", "\"x\\\"y\"",
    ]
    static let spaces = ["", "", "", " ", "\t", "\r", "  "]

    static func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T { items[Int(random.next() % UInt64(items.count))] }

    /// A flat object of 0...5 random pairs with random JSON whitespace between its tokens.
    static func generatedObject(_ random: inout SplitMix64) -> String {
        let pairs = (0..<Int(random.next() % 6)).map { _ in
            "\"\(pick(keys, &random))\"" + pick(spaces, &random) + ":" + pick(spaces, &random) + pick(values, &random)
        }
        return pick(spaces, &random) + "{" + pick(spaces, &random) + pairs.joined(separator: "," + pick(spaces, &random))
            + pick(spaces, &random) + "}" + pick(spaces, &random)
    }

    /// One random byte replaced, inserted or removed.
    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let noise: [UInt8] = Array(#"{}[]":,\ 0-.e"#.utf8) + [0x00, 0x0A, 0x80, 0xFF]
        let byte = pick(noise, &random)
        let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
        switch random.next() % 3 {
        case 0 where !bytes.isEmpty: bytes[position] = byte
        case 1 where !bytes.isEmpty: bytes.remove(at: position)
        default: bytes.insert(byte, at: position)
        }
    }
}
