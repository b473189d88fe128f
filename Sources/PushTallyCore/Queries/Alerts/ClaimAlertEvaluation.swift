extension Queries {
    /// Takes this interval's evaluation; returns a row when this caller took it.
    ///
    /// One row, updated only when the last evaluation is nine tenths of an interval old: a collector whose
    /// timer fires a little early still takes its turn, and of collectors asking at once the row lock lets
    /// one through and the rest find it fresh.
    package struct ClaimAlertEvaluation: StoreQuery {
        package let now: Int64
        package let intervalMillis: Int64

        package init(now: Int64, intervalMillis: Int64) { (self.now, self.intervalMillis) = (now, intervalMillis) }

        package func sql(_ dialect: SQLDialect) -> String {
            "UPDATE alert_evaluation SET evaluated_at = ? WHERE id = 1 AND evaluated_at <= ? RETURNING id"
        }

        package var values: [QueryValue] { [.integer(now), .integer(now - intervalMillis * 9 / 10)] }
    }
}
