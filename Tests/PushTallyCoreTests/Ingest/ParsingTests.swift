import Foundation
import Testing

@testable import PushTallyCore

/// The extension's form body read into its raw event (`FormBody.rawEvent`): what it keeps, and what it refuses.
@Suite struct FormBodyTests {
    /// A body and the fields its raw event holds, or the code it is refused with.
    struct Case: Sendable, CustomTestStringConvertible {
        let body: String
        let outcome: Result<[String: String], FieldError>
        var testDescription: String { body.isEmpty ? "(empty)" : body }

        static func reads(_ body: String, _ fields: [String: String]) -> Case { Case(body: body, outcome: .success(fields)) }
        static func refuses(_ body: String, _ code: String) -> Case { Case(body: body, outcome: .failure(FieldError(code, ""))) }
    }

    static let cases: [Case] = [
        .reads("push_id=2018001", ["push_id": "2018001"]),
        .reads("push_id=a%20b+c&device_id=%E6%96%B0&app=&platform", ["push_id": "a b c", "device_id": "新", "app": "", "platform": ""]),
        .reads("push_id=1&push_id=2", ["push_id": "1"]),
        .reads("push_id=1&receipt_id=r&ts=1700000000000&utm_source=x&flag", ["push_id": "1", "receipt_id": "r", "ts": "1700000000000"]),
        // An unknown name is checked once, as the first of a repeated known name is read once.
        .reads("push_id=1&utm_source=x&utm_source=%ZZ", ["push_id": "1"]),
        .reads("&&push_id=1&&", ["push_id": "1"]),
        .reads("=1&push_id=2", ["push_id": "2"]),
        .reads("", [:]),
        .refuses("push_id=%G1", "malformed_form"),
        .refuses("push_id=%4", "malformed_form"),
        .refuses("push_id=1&unknown=%ZZ", "malformed_form"),
        .refuses("push_id=%FF%FE", "invalid_utf8"),
        .refuses("%FF=1&push_id=2", "invalid_utf8"),
    ]

    @Test(arguments: cases)
    func readsTheBody(_ expected: Case) {
        let bytes = Array(expected.body.utf8)
        let read = bytes.withUnsafeBytes { buffer in Result { () throws(FieldError) -> RawEvent in try FormBody.rawEvent(buffer) } }
        switch (read, expected.outcome) {
        case (.success(let event), .success(let fields)):
            #expect(event == RawEvent(fields: fields.mapValues { .string($0) }))
        case (.failure(let error), .failure(let refusal)):
            #expect(error.code == refusal.code)
        default:
            Issue.record("read \(read), expected \(expected.outcome)")
        }
    }
}

extension FormBodyTests {
    /// Bytes sent unescaped: plain ASCII is read as it stands, other bytes only when they are UTF-8.
    @Test func unescapedBytesAreReadOnlyWhenTheyAreUTF8() throws {
        func read(_ bytes: [UInt8]) -> Result<RawEvent, FieldError> {
            bytes.withUnsafeBytes { buffer in Result { () throws(FieldError) -> RawEvent in try FormBody.rawEvent(buffer) } }
        }
        #expect(try read(Array("push_id=~id-7.x_".utf8)).get().fields == ["push_id": .string("~id-7.x_")])
        #expect(try read(Array("push_id=新".utf8)).get().fields == ["push_id": .string("新")])
        for invalid in [[0xFF], [0xE6, 0x96], [0xC0, 0xAF]] as [[UInt8]] {
            guard case .failure(let error) = read(Array("push_id=a".utf8) + invalid) else {
                Issue.record("\(invalid) read")
                continue
            }
            #expect(error.code == "invalid_utf8")
        }
    }
}

@Suite struct EventValidatorTests {
    @Test func acceptsAMinimalReceipt() throws {
        let event = try EventValidator.validate(RawEvent(form: ["push_id": "2018001"]), kind: .display)
        #expect(event == IncomingEvent(pushID: "2018001", kind: .display))
    }

    @Test func requiresPushID() {
        for form in [[:], ["push_id": ""]] {
            #expect { try EventValidator.validate(RawEvent(form: form), kind: .display) } throws: {
                ($0 as? FieldError) == FieldError.missing("push_id")
            }
        }
    }

    @Test func limitsPushIDTo128Bytes() throws {
        _ = try EventValidator.validate(RawEvent(form: ["push_id": String(repeating: "x", count: 128)]), kind: .display)
        #expect { try EventValidator.validate(RawEvent(form: ["push_id": String(repeating: "x", count: 129)]), kind: .display) } throws: {
            ($0 as? FieldError)?.code == "too_long" && ($0 as? FieldError)?.field == "push_id"
        }
        // 43 three-byte characters are 129 bytes: the limit is bytes, not characters.
        #expect(throws: FieldError.self) {
            try EventValidator.validate(RawEvent(form: ["push_id": String(repeating: "新", count: 43)]), kind: .display)
        }
    }

    @Test func rejectsControlCharacters() {
        #expect { try EventValidator.validate(RawEvent(form: ["push_id": "a\u{0}b"]), kind: .display) } throws: {
            ($0 as? FieldError)?.code == "invalid_characters"
        }
    }

    @Test func actionsRequireAnIdentifierAndMapApples() throws {
        #expect { try EventValidator.validate(RawEvent(form: ["push_id": "1"]), kind: .action) } throws: {
            ($0 as? FieldError)?.field == "action"
        }
        let open = try EventValidator.validate(
            RawEvent(form: ["push_id": "1", "action": "com.apple.UNNotificationDefaultActionIdentifier"]), kind: .action)
        #expect(open.action == "open")
        let dismiss = try EventValidator.validate(
            RawEvent(form: ["push_id": "1", "action": "com.apple.UNNotificationDismissActionIdentifier"]), kind: .action)
        #expect(dismiss.action == "dismiss")
        let view = try EventValidator.validate(RawEvent(form: ["push_id": "1", "action": "view"]), kind: .action)
        #expect(view.action == "view")
    }

    @Test func numericPushIDsFromJSONBecomeStrings() throws {
        let body = try EventBody.json(Data(#"{"push_id": 2018001, "ts": 1795000000.5}"#.utf8))
        guard case .single(let raw) = body else { Issue.record("expected a single event"); return }
        let event = try EventValidator.validate(raw, kind: .display)
        #expect(event.pushID == "2018001")
        #expect(event.deviceTimeMillis == 1_795_000_000_500)
    }

    @Test func rejectsWrongTypesByField() throws {
        let body = try EventBody.json(Data(#"[{"push_id": true}, {"push_id": "1", "device_id": {"a": 1}}, 7]"#.utf8))
        guard case .batch(let items) = body else { Issue.record("expected a batch"); return }
        let errors = items.map { item in
            Result { () throws(FieldError) in try EventValidator.validate(try item.get(), kind: .display) }
        }.map { result -> String? in
            if case .failure(let error) = result { return error.field ?? error.code } else { return nil }
        }
        #expect(errors == ["push_id", "device_id", "malformed_json"])
    }

    @Test func malformedJSONIsAFieldError() {
        #expect { try EventBody.json(Data("{\"push_id\": ".utf8)) } throws: { ($0 as? FieldError)?.code == "malformed_json" }
        #expect { try EventBody.json(Data("\"x\"".utf8)) } throws: { ($0 as? FieldError)?.code == "malformed_json" }
        #expect { try EventBody.json(Data("  ".utf8)) } throws: { ($0 as? FieldError)?.code == "empty_body" }
    }

    @Test func ndjsonRejectsBadLinesAlone() {
        guard case .batch(let items) = EventBody.ndjson(Data("{\"push_id\":\"1\"}\n\nnot json\n{\"push_id\":\"2\"}\n".utf8)) else {
            Issue.record("expected a batch")
            return
        }
        #expect(items.count == 3)
        #expect((try? items[0].get()) != nil)
        #expect((try? items[1].get()) == nil)
        #expect((try? items[2].get())?.fields["push_id"] == .string("2"))
    }
}

@Suite struct PushValidatorTests {
    @Test func readsARegistration() throws {
        let json = try JSONValue.parse(Data(#"""
            {"campaign": "新文章", "title": "t", "sent_at": "2026-11-20T08:00:00Z", "targeted": 100, "sent": 90,
             "failed": {"Unregistered": 7, "BadDeviceToken": 3}, "app": "com.example", "environment": "production"}
            """#.utf8))
        let push = try PushValidator.registration(json, pushID: "2018001")
        #expect(push == PushRegistration(
            pushID: "2018001", campaign: "新文章", title: "t", sentAtMillis: 1_795_161_600_000, app: "com.example",
            environment: "production",
            counts: SendCounts(targeted: 100, sent: 90, failed: ["Unregistered": 7, "BadDeviceToken": 3])))
    }

    @Test func namesTheBadField() throws {
        let cases: [(String, String)] = [
            (#"{}"#, "campaign"),
            (#"{"campaign": "c", "sent": -1}"#, "sent"),
            (#"{"campaign": "c", "sent": 1.5}"#, "sent"),
            (#"{"campaign": "c", "failed": {"Unregistered": "x"}}"#, "failed.Unregistered"),
            (#"{"campaign": "c", "failed": [1]}"#, "failed"),
            (#"{"campaign": "c", "environment": "staging"}"#, "environment"),
            (#"{"campaign": "c", "sent_at": "soon"}"#, "sent_at"),
            (#"{"campaign": "c", "push_id": "other"}"#, "push_id"),
        ]
        for (body, field) in cases {
            #expect(throws: FieldError.self, "\(body)") {
                try PushValidator.registration(try JSONValue.parse(Data(body.utf8)), pushID: "p")
            }
            do {
                _ = try PushValidator.registration(try JSONValue.parse(Data(body.utf8)), pushID: "p")
            } catch {
                #expect(error.field == field, "\(body)")
            }
        }
    }

    @Test func sendBatchesNeedABatchID() throws {
        #expect { try PushValidator.sendBatch(try JSONValue.parse(Data(#"{"sent": 1}"#.utf8)), pushID: "p") } throws: {
            ($0 as? FieldError)?.field == "batch_id"
        }
        let batch = try PushValidator.sendBatch(try JSONValue.parse(Data(#"{"batch_id": "w1", "sent": 5}"#.utf8)), pushID: "p")
        #expect(batch == SendBatch(pushID: "p", batchID: "w1", counts: SendCounts(sent: 5)))
    }
}
