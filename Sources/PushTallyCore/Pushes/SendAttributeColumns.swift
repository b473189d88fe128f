/// The `pushes` columns of ``SendAttributes``, named once for both engines' statements and migrations.
package enum SendAttributeColumns {
    /// In ``values(_:)``' order.
    package static let names = ["variant", "collapse_id", "priority", "push_type", "expiration"]

    /// The columns as `ALTER TABLE pushes ADD COLUMN` statements; `integer` is the dialect's 64-bit type.
    package static func additions(integer: String) -> [String] {
        ["variant TEXT", "collapse_id TEXT", "priority \(integer)", "push_type TEXT", "expiration \(integer)"]
            .map { "ALTER TABLE pushes ADD COLUMN \($0)" }
    }

    /// Finds the pushes that may supersede one another (``CollapsePeersQuery``) without scanning `pushes`.
    package static let collapseIndex = "CREATE INDEX pushes_collapse ON pushes (app, collapse_id, sent_at)"

    /// A registration's attribute values, in ``names``' order (`nil` is `NULL`).
    package static func values(_ attributes: SendAttributes) -> (String?, String?, Int64?, String?, Int64?) {
        (attributes.variant, attributes.collapseID, attributes.priority.map(Int64.init), attributes.pushType,
         attributes.expirationMillis)
    }

    /// Attributes read back from the columns.
    package static func attributes(
        variant: String?, collapseID: String?, priority: Int64?, pushType: String?, expiration: Int64?
    ) -> SendAttributes {
        SendAttributes(
            variant: variant, collapseID: collapseID, priority: priority.map(Int.init), pushType: pushType,
            expirationMillis: expiration)
    }
}
