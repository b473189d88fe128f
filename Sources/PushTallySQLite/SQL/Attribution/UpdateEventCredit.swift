import PushTallyCore

extension Queries {
    /// Stores one credit (its code and credited push) on a raw event row, by rowid. Prepared once per commit or
    /// rebuild and bound per change.
    enum UpdateEventCredit {
        static let sql = "UPDATE events SET attribution = ?, attributed_push = ? WHERE rowid = ?"
    }
}
