import PushTallyCore

extension Queries {
    /// A registered push's app (a row holding `NULL` when it names none), for a push the name book has not
    /// seen yet. Prepared through the connection's cache and bound per push inside a commit.
    enum SelectPushApp {
        static let sql = "SELECT app FROM pushes WHERE push_id = ?"
    }
}
