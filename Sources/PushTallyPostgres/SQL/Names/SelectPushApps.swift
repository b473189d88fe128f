import PushTallyCore

extension Queries {
    /// The app of each registered push among `pushIDs` (`nil` for a push registered without one).
    struct SelectPushApps: RowQuery {
        let pushIDs: [String]

        func sql(_ dialect: SQLDialect) -> String { "SELECT push_id, app FROM pushes WHERE push_id = ANY(?::text[])" }

        var values: [QueryValue] { [.texts(pushIDs)] }

        func row(_ columns: some QueryRow) throws -> (pushID: String, app: String?) {
            (try columns.text(0), try columns.optionalText(1))
        }
    }
}
