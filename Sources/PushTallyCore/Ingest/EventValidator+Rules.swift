/// The enumerated and numeric fields, checked by what their columns declare (``EventColumn/clientField``): absent
/// or empty is `nil` (unknown); anything else outside the declaration is a ``FieldError`` naming the field.
extension EventColumn {
    /// The field clients send for this column; only columns that declare one are read from what they send.
    var sentField: ClientField {
        guard let field = clientField else { preconditionFailure("\(name) is filled by the server, not sent") }
        return field
    }
}

extension EventValidator {
    /// The value of `column`'s field as one of its declared values, read into `Value`.
    static func enumerated<Value: RawRepresentable>(_ raw: RawEvent, _ column: EventColumn, as _: Value.Type) throws(FieldError) -> Value?
    where Value.RawValue == String {
        let field = column.sentField
        guard let text = try text(raw, field.name) else { return nil }
        guard let value = Value(rawValue: text) else {
            guard case .oneOf(let accepted) = field.rule else { preconditionFailure("\(field.name) is not declared enumerated") }
            throw FieldError("bad_value", "\(field.name) must be one of \(accepted.joined(separator: ", "))", field: field.name)
        }
        return value
    }

    /// The value of `column`'s field as a whole number in its declared range: a JSON number, or decimal digits
    /// without leading zeros (forms send text), never more digits than the range's bound has.
    static func wholeNumber(_ raw: RawEvent, _ column: EventColumn) throws(FieldError) -> Int64? {
        let field = column.sentField
        guard case .wholeNumber(let range, let unit) = field.rule else { preconditionFailure("\(field.name) is not declared a whole number") }
        // Built only when thrown: most events are valid, and the message is a string built per call.
        var wrong: FieldError {
            FieldError(
                "bad_value", "\(field.name) must be a whole number of \(unit) from \(range.lowerBound) to \(range.upperBound)",
                field: field.name)
        }
        let number: Int64
        switch raw.value(of: field.name) {
        case nil:
            return nil
        case .string(let text):
            if text.isEmpty { return nil }
            let digits = text.utf8
            guard digits.count <= decimalDigits(range.upperBound),
                digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                digits.count == 1 || digits.first != UInt8(ascii: "0"), let value = Int64(text)
            else { throw wrong }
            number = value
        case .number(let value):
            guard value.rounded() == value, value >= Double(range.lowerBound), value <= Double(range.upperBound) else { throw wrong }
            number = Int64(value)
        case .unsupported:
            throw wrong
        }
        guard range.contains(number) else { throw wrong }
        return number
    }

    /// How many decimal digits `bound` is written with: a longer text is out of range by its length alone.
    private static func decimalDigits(_ bound: Int64) -> Int {
        var digits = 1
        var rest = bound.magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        return digits
    }
}
