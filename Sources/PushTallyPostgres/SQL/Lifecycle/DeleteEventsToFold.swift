import PushTallyCore

extension Queries {
    /// Deletes up to `batchSize` raw events matching `condition`, by id, skipping rows another transaction holds,
    /// and returns their counted columns, so the caller folds exactly the rows deleted.
    ///
    /// The condition stands on the outer `DELETE` too, so PostgreSQL looks only in the partitions it can match;
    /// its value is bound once for each.
    struct DeleteEventsToFold: StoreQuery {
        enum Condition: Sendable {
            case receivedBefore(Int64)
            case device(keyedID: String)
        }

        let condition: Condition
        let batchSize: Int

        func sql(_ dialect: SQLDialect) -> String {
            let condition = switch condition {
            case .receivedBefore: "received_at < ?"
            case .device: "device_id = ?"
            }
            return """
                DELETE FROM events WHERE \(condition) AND id IN (
                    SELECT id FROM events WHERE \(condition) ORDER BY id LIMIT \(batchSize) FOR UPDATE SKIP LOCKED)
                RETURNING \(StoredEvent.countedColumns)
                """
        }

        var values: [QueryValue] {
            let value: QueryValue = switch condition {
            case .receivedBefore(let cutoff): .integer(cutoff)
            case .device(let keyedID): .text(keyedID)
            }
            return [value, value]
        }
    }
}
