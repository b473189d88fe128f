/// A report figure whose sum passes what 64 bits hold (9.2 × 10^18): the report answers this error, never a
/// wrong figure or the end of the process. Every stored value is bounded at the door, so only a sum over very
/// many of them gets here; a narrower report (one campaign, one push, a shorter range) still adds up.
public struct TotalOutOfRange: Error, Sendable, Hashable, CustomStringConvertible {
    /// The report column that does not fit, such as `sent` or `conversion_value`.
    public var field: String

    /// The error for the report column `field`.
    public init(field: String) {
        self.field = field
    }

    public var description: String {
        "\(field) adds up to more than 9.2 × 10^18 in this report; narrow it to fewer pushes (a campaign, a push or a shorter range)"
    }
}

extension Int64 {
    /// `self += amount`, or ``TotalOutOfRange`` naming `field` (and `self` as it was) when the sum passes 64 bits.
    package mutating func add(_ amount: Int64, field: String) throws(TotalOutOfRange) {
        let (sum, overflow) = addingReportingOverflow(amount)
        guard !overflow else { throw TotalOutOfRange(field: field) }
        self = sum
    }
}
