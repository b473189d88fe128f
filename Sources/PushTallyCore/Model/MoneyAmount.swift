/// Money as whole millionths of a currency unit: sums of integers are exact in any order, which a recount
/// needs, and six decimals hold every ISO 4217 minor unit.
public enum MoneyAmount {
    /// The largest value one conversion may carry (a billion units): its millionths and any realistic sum of
    /// them stay far inside `Int64`.
    public static let maximumUnits: Int64 = 1_000_000_000

    /// Parses a conversion's `value`: a JSON number or a decimal string, at least 0, at most 1e9, rounded to
    /// millionths.
    public static func micros(from value: RawValue, field: String) throws(FieldError) -> Int64 {
        let invalid = FieldError(
            "invalid_value", "\(field) must be a number from 0 to \(maximumUnits), such as 9.99", field: field)
        switch value {
        case .number(let number):
            guard number.isFinite, number >= 0, number <= Double(maximumUnits) else { throw invalid }
            return Int64((number * 1_000_000).rounded())
        case .string(let text):
            guard let micros = parse(text) else { throw invalid }
            return micros
        case .unsupported(let type):
            throw FieldError("bad_type", "\(field) must be a number, not \(type)", field: field)
        }
    }

    /// A plain decimal (`12`, `9.99`, `0.5`) as millionths, digits beyond the sixth decimal rounded half up (a
    /// value under half a millionth is 0); past the cap by any digit, `nil`.
    static func parse(_ text: String) -> Int64? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit), whole.count <= 10,
            let units = Int64(whole), units <= maximumUnits
        else { return nil }
        var fraction = parts.count == 2 ? Array(parts[1]) : []
        guard parts.count == 1 || (!fraction.isEmpty && fraction.allSatisfy(\.isASCIIDigit)) else { return nil }
        // The cap holds for the value as written, as it does for a JSON number, not for its rounding.
        if units == maximumUnits, fraction.contains(where: { $0 != "0" }) { return nil }
        let roundUp = fraction.count > 6 && fraction[6] >= "5"
        fraction = Array(fraction.prefix(6)) + Array(repeating: "0", count: max(0, 6 - fraction.count))
        let micros = units * 1_000_000 + Int64(String(fraction))! + (roundUp ? 1 : 0)
        return micros <= maximumUnits * 1_000_000 ? micros : nil
    }

    /// Millionths as the shortest exact decimal text (`9990000` is `9.99`, `5000000` is `5`).
    public static func text(micros: Int64) -> String {
        let sign = micros < 0 ? "-" : ""
        let magnitude = micros.magnitude
        let whole = magnitude / 1_000_000
        var fraction = String(magnitude % 1_000_000)
        guard fraction != "0" else { return "\(sign)\(whole)" }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(whole).\(fraction)"
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
