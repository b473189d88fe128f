import Logging
import NIOConcurrencyHelpers
import PostgresNIO

/// Keeps the raw event partitions of the coming days created while a collector runs: a commit whose receive
/// time comes within a few days of the last day created starts one creation in the background. Ingest never
/// waits for it; an event of a day still missing lands in the default partition and moves when its day is made.
final class PartitionKeeper: Sendable {
    private struct State {
        /// The last day created (or found) ahead; `nil` on an unpartitioned table.
        var through: Int64?
        var running = false
    }

    private let state: NIOLockedValueBox<State>
    private let client: PostgresClient
    private let timeout: Duration
    private let logger: Logger

    init(through: Int64?, client: PostgresClient, timeout: Duration, logger: Logger) {
        state = NIOLockedValueBox(State(through: through))
        self.client = client
        self.timeout = timeout
        self.logger = logger
    }

    /// Called with each commit's receive time: one comparison unless the days ahead run short.
    func keepAhead(of receivedAt: Int64) {
        let days = EventPartitions.daysAround(receivedAt)
        let due = state.withLockedValue { state -> Bool in
            guard let through = state.through, !state.running, through < days.upperBound - EventPartitions.daysBehind - 1 else {
                return false
            }
            state.running = true
            return true
        }
        guard due else { return }
        let (client, timeout, logger, state) = (client, timeout, logger, state)
        Task {
            do {
                try await PostgresStore.withConnection(client, timeout: timeout) { connection in
                    try await EventPartitions.ensure(days, on: connection, logger: logger)
                }
                state.withLockedValue { $0 = State(through: days.upperBound) }
            } catch {
                logger.warning("could not create raw event partitions ahead", metadata: ["error": "\(String(reflecting: error))"])
                state.withLockedValue { $0.running = false }
            }
        }
    }
}
