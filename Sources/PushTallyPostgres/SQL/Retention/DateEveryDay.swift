import PushTallyCore

extension Queries {
    /// Declares rollup rows dated from the earliest day there is.
    struct DateEveryDay: StoreQuery {
        let datedFromKey: String

        func sql(_ dialect: SQLDialect) -> String { "UPDATE meta SET value = ? WHERE key = ?" }

        var values: [QueryValue] { [.text(String(Int64.min)), .text(datedFromKey)] }
    }
}
