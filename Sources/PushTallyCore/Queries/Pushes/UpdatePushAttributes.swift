extension Queries {
    /// Replaces a push's send attributes (``SendAttributeColumns``).
    package struct UpdatePushAttributes: StoreQuery {
        package let pushID: String
        package let attributes: SendAttributes

        package init(pushID: String, _ attributes: SendAttributes) { (self.pushID, self.attributes) = (pushID, attributes) }

        package func sql(_ dialect: SQLDialect) -> String {
            "UPDATE pushes SET \(SendAttributeColumns.names.map { "\($0) = ?" }.joined(separator: ", ")) WHERE push_id = ?"
        }

        package var values: [QueryValue] {
            let (variant, collapseID, priority, pushType, expiration) = SendAttributeColumns.values(attributes)
            return [.text(variant), .text(collapseID), .integer(priority), .text(pushType), .integer(expiration), .text(pushID)]
        }
    }
}
