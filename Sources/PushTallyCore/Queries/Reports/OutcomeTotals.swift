extension SQLDialect {
    /// Sessions and conversions by credit whose 15-minute bucket falls in `range`.
    package func outcomeTotals(_ range: OutcomeTimeRange) -> RenderedQuery {
        rendered(
            """
            SELECT measure, currency, \(sum("count")), \(sum("value_micros")), \(sum("value_units")) FROM rollup_outcome_time
            WHERE bucket >= ? AND bucket <= ? GROUP BY measure, currency
            """,
            [.integer(range.firstBucket), .integer(range.lastBucket)])
    }
}

extension ReportRowDecoding {
    /// A row of ``SQLDialect/outcomeTotals(_:)`` added to `totals`.
    package static func addOutcome<Row: ReportRow>(_ row: Row, to totals: inout Outcomes) throws {
        guard let measure = OutcomeMeasure(rawValue: Int(try row.int64(0))) else { return }
        totals.add(
            measure: measure, currency: try row.text(1), count: try row.int64(2),
            value: try money(units: try row.int64(4), micros: try row.int64(3)))
    }

    /// A value summed from its stored parts (``MoneyTotal``).
    @inlinable
    package static func money(units: Int64, micros: Int64) throws(TotalOutOfRange) -> MoneyTotal {
        guard let value = MoneyTotal(units: units, micros: micros) else { throw TotalOutOfRange(field: "conversion_value") }
        return value
    }
}
