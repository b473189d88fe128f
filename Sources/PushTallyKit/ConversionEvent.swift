import Foundation

/// A conversion (`purchase`, `signup`, ...), as posted to `/v1/conversions` (one NDJSON line).
struct ConversionEvent: Codable, Equatable, Sendable {
    var device_id: String
    var event: String
    /// The amount's decimal digits, e.g. `9.99`. A string in the outbox file, a JSON number on the wire
    /// (`wireLine`): `JSONDecoder` reads a JSON number into `Decimal` through `Double` on Apple platforms
    /// before iOS 17, which can turn a queued 9.99 into something like 9.990000000000002.
    var value: String?
    /// An ISO 4217 code (`USD`); present whenever `value` is.
    var currency: String?
    /// The collector counts one conversion per id, so the outbox's retries count once.
    var conversion_id: String
    /// The device's clock at the conversion, unix seconds.
    var ts: Double

    /// A conversion the collector will take, or `nil` when it would refuse it (see `FieldRules`): an empty
    /// or too long event name or id, a value below 0 or over a billion, a value without a currency or a
    /// currency without a value, or a currency that is not three letters. A lower-case currency is sent in
    /// capitals (`usd` is USD). With no `id`, one is made up, and kept with the queued event so that resending
    /// it stays one conversion.
    init?(event: String, value: Decimal?, currency: String?, id: String?, deviceID: String, ts: Double) {
        let id = id.flatMap { $0.isEmpty ? nil : $0 }
        guard FieldRules.isText(event, limit: FieldRules.maxEventBytes),
            id.map({ FieldRules.isText($0, limit: FieldRules.maxConversionIDBytes) }) ?? true,
            (value == nil) == (currency == nil)
        else { return nil }
        if let value, let currency {
            guard FieldRules.isValue(value), FieldRules.isCurrencyCode(currency) else { return nil }
        }
        self.device_id = deviceID
        self.event = event
        self.value = value.map(Self.digits)
        self.currency = currency?.uppercased()
        self.conversion_id = id ?? UUID().uuidString
        self.ts = ts
    }

    /// Plain decimal digits (`9.99`, `1000000`), never an exponent, in every locale: a valid JSON number
    /// for a value that is not negative.
    static func digits(_ value: Decimal) -> String {
        value.description
    }

    /// The line posted: every field as JSON, with `value` written out as a number of the stored digits.
    func wireLine(encoder: JSONEncoder) throws -> Data {
        var others = self
        others.value = nil
        var line = try encoder.encode(others)
        guard let value else { return line }
        // Parsed and written again, so the digits spliced in are a well-formed number whatever the file said.
        guard let amount = Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")), !amount.isNaN else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "not a decimal number"))
        }
        guard line.last == UInt8(ascii: "}") else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: [], debugDescription: "not a JSON object"))
        }
        line.removeLast()
        line.append(contentsOf: Data(#","value":\#(Self.digits(amount))}"#.utf8))
        return line
    }
}
