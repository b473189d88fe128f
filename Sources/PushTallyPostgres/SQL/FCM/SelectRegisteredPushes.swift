import PushTallyCore

extension Queries {
    /// Which of `pushIDs` are registered pushes.
    struct SelectRegisteredPushes: RowQuery {
        let pushIDs: [String]

        func sql(_ dialect: SQLDialect) -> String { "SELECT push_id FROM pushes WHERE push_id = ANY(?)" }

        var values: [QueryValue] { [.texts(pushIDs)] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
