import PushTallyCore

extension Queries {
    /// A registered push's campaign and app, the labels its webhook messages carry. Prepared through the
    /// connection's cache and bound per push (a commit's outbox note reads its pushes' labels).
    enum SelectPushLabels {
        static let sql = "SELECT campaign, app FROM pushes WHERE push_id = ?"
    }
}
