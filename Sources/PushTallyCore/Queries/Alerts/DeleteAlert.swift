extension Queries {
    /// Deletes an alert; returns a row when it did (its history is ``DeleteAlertHistory``'s, in the same transaction).
    package struct DeleteAlert: StoreQuery {
        package let id: String

        package init(id: String) { self.id = id }

        package func sql(_ dialect: SQLDialect) -> String {
            "DELETE FROM alerts WHERE id = ? RETURNING id"
        }

        package var values: [QueryValue] { [.text(id)] }
    }
}
