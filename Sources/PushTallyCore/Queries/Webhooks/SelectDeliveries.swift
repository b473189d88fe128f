extension Queries {
    /// An endpoint's latest deliveries, newest first, of one status or all.
    package struct SelectDeliveries: RowQuery {
        package let endpointID: String
        package let status: WebhookDeliveryStatus?
        package let limit: Int

        package init(endpointID: String, status: WebhookDeliveryStatus?, limit: Int) {
            (self.endpointID, self.status, self.limit) = (endpointID, status, limit)
        }

        /// `CAST` gives the first status placeholder a type PostgreSQL can read when it stands alone.
        package func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT \(WebhookSchema.deliveryColumns)
            FROM webhook_deliveries d JOIN webhook_messages m ON m.id = d.message_id
            WHERE d.endpoint_id = ? AND (CAST(? AS TEXT) IS NULL OR d.status = ?)
            ORDER BY d.created_at DESC, d.message_id DESC LIMIT ?
            """
        }

        package var values: [QueryValue] {
            [.text(endpointID), .text(status?.rawValue), .text(status?.rawValue), .integer(Int64(limit))]
        }

        package func row(_ columns: some QueryRow) throws -> WebhookDelivery {
            WebhookDelivery(
                messageID: try columns.text(0), endpointID: try columns.text(1),
                type: WebhookEventType(rawValue: try columns.text(2)) ?? .receiptDisplayed,
                status: WebhookDeliveryStatus(rawValue: try columns.text(3)) ?? .pending, attempts: Int(try columns.int64(4)),
                lastHTTPStatus: try columns.optionalInt64(5).map(Int.init), lastError: try columns.optionalText(6),
                createdAtMillis: try columns.int64(7), lastAttemptMillis: try columns.optionalInt64(8),
                nextAttemptMillis: try columns.optionalInt64(9), deliveredAtMillis: try columns.optionalInt64(10))
        }
    }
}
