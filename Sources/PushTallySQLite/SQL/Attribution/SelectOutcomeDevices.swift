import PushTallyCore

extension Queries {
    /// Every device that has a session or conversion: the devices a rebuild re-derives credits for.
    struct SelectOutcomeDevices: RowQuery {
        func sql(_ dialect: SQLDialect) -> String {
            "SELECT DISTINCT device_id FROM events WHERE kind >= \(EventKind.session.rawValue) AND device_id IS NOT NULL"
        }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
