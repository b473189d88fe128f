import PushTallyCore

extension Queries {
    /// The next batch of raw events a prune or a forget folds into the ledger: those after a rowid that
    /// ``Scope`` selects, in rowid order, read by the columns counting needs (``StoredEvent/countedColumns``).
    struct SelectEventsToFold: RowQuery {
        /// Which raw events are folded.
        enum Scope: Sendable {
            /// Those received before a cutoff (a prune).
            case receivedBefore(Int64)
            /// Those of one device, by its keyed hash (a forget).
            case device(String)

            /// The condition on `events`, with a `?` for ``value``.
            var condition: String {
                switch self {
                case .receivedBefore: "received_at < ?"
                case .device: "device_id = ?"
                }
            }

            var value: QueryValue {
                switch self {
                case .receivedBefore(let cutoff): .integer(cutoff)
                case .device(let deviceID): .text(deviceID)
                }
            }
        }

        let afterRow: Int64
        let scope: Scope
        let limit: Int

        func sql(_ dialect: SQLDialect) -> String {
            """
            SELECT rowid, \(StoredEvent.countedColumns) FROM events
            WHERE rowid > ? AND \(scope.condition) ORDER BY rowid LIMIT \(limit)
            """
        }

        var values: [QueryValue] { [.integer(afterRow), scope.value] }

        func row(_ columns: some QueryRow) throws -> (rowID: Int64, event: StoredEvent) {
            (try columns.int64(0), try StoredEvent(countedRow: columns, offset: 1))
        }
    }
}
