import PostgresNIO
import PushTallyCore

extension PostgresStore {
    /// Creates the day partitions of `days` that are missing, moving in any rows the default partition holds
    /// for them.
    package func ensurePartitions(days: ClosedRange<Int64>) async throws {
        let logger = logger
        try await Self.withConnection(client, timeout: connectionTimeout) { connection in
            try await EventPartitions.ensure(days, on: connection, logger: logger)
        }
    }

    /// Gives the rows of the default partition received within the last year (a copied history) day
    /// partitions of their own, so retention drops them by the day like the rest.
    func partitionDefaultRows() async throws {
        let now = configuration.clock()
        let earliest = (EventPartitions.day(ofMillis: now) - PartitionMigration.daysKept) * EventPartitions.dayMillis
        let latest = (EventPartitions.daysAround(now).upperBound + 1) * EventPartitions.dayMillis
        let days = try await fetch(Queries.SelectDaysInDefaultPartition(fromMillis: earliest, untilMillis: latest))
        for day in days { try await ensurePartitions(days: day...day) }
    }
}
