import Testing

@testable import PushTallyCore

/// The fields clients send are declared beside their raw-event columns: the parsers keep those names, and the
/// validators check each against what its declaration says it may hold.
@Suite struct ClientFieldTests {
    @Test func theParsersKeepExactlyTheDeclaredFields() {
        let declared = EventColumn.allCases.compactMap(\.clientField?.name) + ["session_id", "conversion_id"]
        #expect(RawEvent.knownFields == declared)
        #expect(Set(declared).count == declared.count, "each name is one column's")
        let parsed = RawEvent(form: Dictionary(uniqueKeysWithValues: declared.map { ($0, "x") }))
        #expect(Set(parsed.fields.keys) == Set(declared))
    }

    @Test func onlyWhatTheServerFillsHasNoField() {
        let filled = EventColumn.allCases.filter { $0.clientField == nil }
        #expect(filled == [.kind, .receivedAt, .duplicate, .attribution, .attributedPush])
    }

    @Test func everyTextFieldDeclaresItsByteLimit() {
        for field in ClientField.all where field.limit == nil {
            if case .text = field.rule { Issue.record("\(field.name) has no limit") }
        }
        #expect(EventValidator.limits["push_id"] == 128, "the contract's limit")
        #expect(EventValidator.limits == ClientField.byName.compactMapValues(\.limit))
        let long = String(repeating: "a", count: 33)
        #expect(throws: FieldError.self) { try EventValidator.validate(RawEvent(form: ["push_id": "p", "platform": long]), kind: .display) }
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
