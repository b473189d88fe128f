import PushTallyCore

extension Queries {
    /// The keyed hash of a constant this database was first used with, by which a collector's device secret is
    /// checked (no row before the first use).
    struct SelectDeviceSecretCheck: RowQuery {
        func sql(_ dialect: SQLDialect) -> String { "SELECT value FROM meta WHERE key = 'device_secret_check'" }

        var values: [QueryValue] { [] }

        func row(_ columns: some QueryRow) throws -> String { try columns.text(0) }
    }
}
