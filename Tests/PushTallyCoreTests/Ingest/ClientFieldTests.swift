import Testing

@testable import PushTallyCore

/// The fields clients send are declared beside their raw-event columns: the parsers keep those names, and the
/// validators check each against what its declaration says it may hold.
@Suite struct ClientFieldTests {
    @Test func theParsersKeepExactlyTheDeclaredFields() {
        // The names clients send (docs/API.md): each must stay a declared field, read by every parser.
        let contract: Set = [
            "push_id", "action", "device_id", "receipt_id", "ts", "platform", "app_version", "os_version", "session_id",
            "app", "event", "value", "currency", "conversion_id", "media", "extension_ms", "notification_permission",
        ]
        #expect(Set(RawEvent.knownFields) == contract)
        #expect(RawEvent.knownFields.count == contract.count, "each name is one field's")
        let parsed = RawEvent(form: Dictionary(uniqueKeysWithValues: (contract.sorted() + ["utm_source"]).map { ($0, "x") }))
        #expect(Set(parsed.fields.keys) == contract)
    }

    @Test func onlyWhatTheServerFillsHasNoField() {
        let filled = EventColumn.allCases.filter { $0.clientField == nil }
        #expect(filled == [.kind, .receivedAt, .duplicate, .attribution, .attributedPush, .eventID])
    }

    @Test func everyTextFieldIsHeldToItsDeclaredByteLimit() throws {
        let contract = [
            "push_id": 128, "action": 64, "device_id": 128, "receipt_id": 128, "platform": 32, "app_version": 64,
            "os_version": 64, "session_id": 128, "conversion_id": 128, "app": 128, "event": 64, "currency": 128,
        ]
        #expect(EventValidator.limits == contract)
        for (name, limit) in contract {
            let fits = RawEvent(form: [name: String(repeating: "a", count: limit)])
            #expect(try EventValidator.text(fits, name)?.utf8.count == limit, "\(name)")
            #expect(throws: FieldError("too_long", "\(name) is longer than \(limit) bytes", field: name)) {
                try EventValidator.text(RawEvent(form: [name: String(repeating: "a", count: limit + 1)]), name)
            }
        }
    }

    @Test func aWholeNumberIsCheckedAgainstItsDeclaredRange() throws {
        guard case .wholeNumber(let range, _) = EventColumn.extensionMillis.clientField?.rule else {
            Issue.record("extension_ms is declared a whole number")
            return
        }
        for value in [range.lowerBound, range.upperBound] {
            #expect(try EventValidator.wholeNumber(RawEvent(form: ["extension_ms": String(value)]), .extensionMillis) == value)
            #expect(try EventValidator.wholeNumber(RawEvent(fields: ["extension_ms": .number(Double(value))]), .extensionMillis) == value)
        }
        let message = "extension_ms must be a whole number of milliseconds from \(range.lowerBound) to \(range.upperBound)"
        for raw in [
            RawEvent(form: ["extension_ms": String(range.upperBound + 1)]), RawEvent(form: ["extension_ms": "0\(range.upperBound)"]),
            RawEvent(form: ["extension_ms": "-1"]), RawEvent(fields: ["extension_ms": .number(Double(range.upperBound) + 0.5)]),
            RawEvent(fields: ["extension_ms": .number(-1)]), RawEvent(fields: ["extension_ms": .unsupported("a boolean")]),
        ] {
            #expect(throws: FieldError("bad_value", message, field: "extension_ms")) { try EventValidator.wholeNumber(raw, .extensionMillis) }
        }
        #expect(try EventValidator.wholeNumber(RawEvent(form: ["extension_ms": ""]), .extensionMillis) == nil)
    }

    @Test func anEnumeratedFieldNamesItsDeclaredValues() throws {
        #expect(try EventValidator.enumerated(RawEvent(form: ["media": "timed_out"]), .media, as: ReceiptMedia.self) == .timedOut)
        #expect(throws: FieldError("bad_value", "media must be one of none, attached, failed, timed_out", field: "media")) {
            try EventValidator.enumerated(RawEvent(form: ["media": "image"]), .media, as: ReceiptMedia.self)
        }
        let permission = "notification_permission must be one of authorized, provisional, ephemeral, denied, not_determined"
        #expect(throws: FieldError("bad_value", permission, field: "notification_permission")) {
            try EventValidator.enumerated(RawEvent(form: ["notification_permission": "on"]), .notificationPermission, as: NotificationPermission.self)
        }
    }
}
