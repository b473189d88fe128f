/// The enumerated and numeric fields of receipts and sessions: `media`, `extension_ms` and
/// `notification_permission`. Absent or empty is `nil` (unknown); anything else outside the contract is a
/// ``FieldError`` naming the field.
enum ReceiptFieldValidator {
    static func media(_ raw: RawEvent) throws(FieldError) -> ReceiptMedia? {
        guard let text = try EventValidator.text(raw, "media") else { return nil }
        guard let media = ReceiptMedia(rawValue: text) else {
            throw FieldError("bad_value", "media must be one of \(ReceiptMedia.accepted)", field: "media")
        }
        return media
    }

    static func permission(_ raw: RawEvent) throws(FieldError) -> NotificationPermission? {
        let field = "notification_permission"
        guard let text = try EventValidator.text(raw, field) else { return nil }
        guard let permission = NotificationPermission(rawValue: text) else {
            throw FieldError("bad_value", "\(field) must be one of \(NotificationPermission.accepted)", field: field)
        }
        return permission
    }

    /// Whole milliseconds, as a JSON number or as decimal digits without leading zeros (forms send text).
    static func extensionMillis(_ raw: RawEvent) throws(FieldError) -> Int64? {
        let field = "extension_ms"
        // Built only when thrown: most receipts are valid, and the message is a string built per call.
        var wrong: FieldError {
            FieldError(
                "bad_value", "\(field) must be a whole number of milliseconds from 0 to \(ExtensionTime.maximumMillis)",
                field: field)
        }
        let millis: Int64
        switch raw.value(of: field) {
        case nil:
            return nil
        case .string(let text):
            if text.isEmpty { return nil }
            let digits = text.utf8
            guard digits.count <= 5, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                digits.count == 1 || digits.first != UInt8(ascii: "0"), let value = Int64(text)
            else { throw wrong }
            millis = value
        case .number(let number):
            guard number.rounded() == number, abs(number) <= Double(Int32.max) else { throw wrong }
            millis = Int64(number)
        case .unsupported:
            throw wrong
        }
        guard (0...ExtensionTime.maximumMillis).contains(millis) else { throw wrong }
        return millis
    }
}
