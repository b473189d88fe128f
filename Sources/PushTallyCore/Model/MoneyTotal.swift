/// A sum of money amounts, exact far past what 64 bits of millionths hold: whole units and the millionths
/// beside them, each in 64 bits. A few thousand of the largest conversions (``MoneyAmount/maximumUnits``) pass
/// 64 bits of millionths; 64 bits of whole units take a million times as many. Rollup rows store the two parts
/// in columns of their own (`value_units`, `value_micros`) and reports add them up here.
public struct MoneyTotal: Sendable, Hashable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// Whole units: the total is `units × 1,000,000 + micros`.
    public private(set) var units: Int64
    /// Millionths beside ``units``, from 0 to 999,999 (a negative total has negative units).
    public private(set) var micros: Int64

    /// Nothing: the start of every sum.
    public static let zero = MoneyTotal(micros: 0)

    /// An amount in millionths (one conversion's value, or a test's expectation).
    public init(micros: Int64) {
        units = micros / 1_000_000
        self.micros = micros % 1_000_000
        if self.micros < 0 {
            units -= 1
            self.micros += 1_000_000
        }
    }

    /// An amount in millionths, as a literal (`9_990_000` is 9.99).
    public init(integerLiteral value: Int64) { self.init(micros: value) }

    /// A total read back from its two stored parts, whatever their range (sums of many rows' parts); `nil` when
    /// the units pass 64 bits.
    public init?(units: Int64, micros: Int64) {
        self.init(micros: micros)
        guard add(units: units) else { return nil }
    }

    /// A total from its exact decimal text (``text``: optional `-`, digits, at most six decimals).
    public init?(text: String) {
        var rest = Substring(text)
        let negative = rest.first == "-"
        if negative { rest = rest.dropFirst() }
        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        // The magnitude in 64 bits unsigned: `-9223372036854775808` is a total ``text`` writes.
        guard let whole = parts.first, !whole.isEmpty, whole.utf8.allSatisfy({ (48...57).contains($0) }), let magnitude = UInt64(whole),
            magnitude <= (negative ? Int64.min.magnitude : UInt64(Int64.max))
        else { return nil }
        let units = negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
        let fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 6, fraction.utf8.allSatisfy({ (48...57).contains($0) }), parts.count == 1 || !fraction.isEmpty,
            let micros = Int64(fraction + String(repeating: "0", count: 6 - fraction.count))
        else { return nil }
        self.init(units: units, micros: negative ? -micros : micros)
    }

    /// Whether the total is nothing (a credit taken back as often as given).
    public var isZero: Bool { units == 0 && micros == 0 }

    /// Adds `other`; `false`, and nothing added, when the units would pass 64 bits.
    @discardableResult
    public mutating func add(_ other: MoneyTotal) -> Bool {
        var sum = micros + other.micros
        var carry: Int64 = 0
        if sum >= 1_000_000 {
            sum -= 1_000_000
            carry = 1
        }
        // The carry first: a negative total's units may dip below Int64.min only to come back with it.
        let (partial, carried) = units.addingReportingOverflow(carry)
        guard !carried else { return false }
        let (total, overflow) = partial.addingReportingOverflow(other.units)
        guard !overflow else { return false }
        (units, micros) = (total, sum)
        return true
    }

    private mutating func add(units more: Int64) -> Bool {
        let (total, overflow) = units.addingReportingOverflow(more)
        guard !overflow else { return false }
        units = total
        return true
    }

    /// The shortest exact decimal (`9.99`, `5`, `-0.5`, `9300000000000`).
    public var text: String {
        let negative = units < 0
        // |total| as whole units and millionths, with no 64-bit negation of `Int64.min`.
        let magnitude: (units: UInt64, micros: UInt64) =
            negative
            ? (micros == 0 ? (units.magnitude, 0) : (units.magnitude - 1, UInt64(1_000_000 - micros)))
            : (UInt64(units), UInt64(micros))
        var fraction = String(magnitude.micros)
        let sign = negative ? "-" : ""
        guard magnitude.micros != 0 else { return "\(sign)\(magnitude.units)" }
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(sign)\(magnitude.units).\(fraction)"
    }

    public var description: String { text }
}
