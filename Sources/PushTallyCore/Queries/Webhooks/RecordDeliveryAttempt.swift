extension Queries {
    /// Stores an attempt's outcome on its delivery while the delivery still carries the claim's lease; returns a
    /// row when it did (a replay or a later claim meanwhile owns the delivery otherwise).
    package struct RecordDeliveryAttempt: StoreQuery {
        package let attempt: RecordedAttempt

        package init(_ attempt: RecordedAttempt) { self.attempt = attempt }

        package func sql(_ dialect: SQLDialect) -> String {
            """
            UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?,
                first_attempt_at = ?, last_attempt_at = ?, next_attempt_at = ?, leased_until = 0, delivered_at = ?
            WHERE message_id = ? AND endpoint_id = ? AND leased_until = ?
            RETURNING 1
            """
        }

        package var values: [QueryValue] {
            let (update, now, delivery) = (attempt.update, attempt.atMillis, attempt.delivery)
            return [
                .text(update.status.rawValue), .integer(update.httpStatus.map(Int64.init)), .text(update.error),
                .integer(update.firstAttemptMillis), .integer(now), .integer(update.nextAttemptMillis),
                .integer(update.status == .delivered ? now : nil), .text(delivery.messageID), .text(delivery.endpointID),
                .integer(delivery.leasedUntilMillis),
            ]
        }
    }
}
