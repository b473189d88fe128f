import Foundation
import PostgresNIO
import PushTallyCore
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// The attribution probes keep one plan per connection, made once and early: they must read each device's events
/// by the device index whatever PostgreSQL's statistics say, or every commit reads every event of the day.
extension PostgresStoreTests {
    @Test func theAttributionProbesReadDevicesByTheirIndexOnPartitionsNeverAnalysed() async throws {
        try await FreshStore.with(.postgres) { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let store = try await PostgresStore(url: url, deviceSecretPath: secret, connectionTimeout: FreshStore.patientCommitTimeout, commitTimeout: FreshStore.patientCommitTimeout, writers: 1)
            let now = StoreConfiguration.systemClock()
            // 50 devices with 4 sessions each, in commits of 50: the day's partition holds 200 events that no
            // ANALYZE has counted yet.
            for round in 0..<4 {
                _ = try await store.ingest((0..<50).map {
                    .session(deviceID: "d\($0)", sessionID: "s\(round)", deviceTimeMillis: now - Int64(4 - round) * 60_000)
                })
            }
            let devices = try await store.column("SELECT DISTINCT device_id FROM events ORDER BY 1 LIMIT 10").compactMap { $0 }
            await store.shutdown()
            #expect(devices.count == 10)
            try await TestPostgres.withConnection(to: PostgresURL(url)) { connection, logger in
                try await connection.query("BEGIN", logger: logger)
                var counts: [String: Int] = [:]
                // More calls than PostgreSQL plans afresh before it settles on a generic plan.
                for _ in 0..<8 {
                    counts = [:]
                    let rows = try await connection.query(
                        """
                        SELECT probe_device, count(event_id) FROM pushtally_attribution_probe(
                            \(devices)::text[], \(devices.map { _ in now - 3_600_000 })::bigint[],
                            \(devices.map { _ in true })::boolean[], \(Int64(86_400_000)), \(Int64(EventKind.session.rawValue)),
                            \(AttributionSchema.prunedBeforeKey))
                        GROUP BY 1
                        """, logger: logger)
                    for try await (device, count) in rows.decode((String, Int).self) { counts[device] = count }
                }
                #expect(counts == Dictionary(uniqueKeysWithValues: devices.map { ($0, 4) }), "each device's four sessions")
                // The one-statement commit's question: has any of these devices a session at or after its time?
                var answers: [Bool] = []
                for from in [now - 3_600_000, now - 3_600_000, now, now, now, now, now, now - 3_600_000] {
                    let rows = try await connection.query(
                        """
                        SELECT pushtally_devices_attributing(\(devices)::text[], \(devices.map { _ in from })::bigint[],
                            \(Int64(EventKind.session.rawValue)))
                        """, logger: logger)
                    for try await answer in rows.decode(Bool.self) { answers.append(answer) }
                }
                #expect(answers == [true, true, false, false, false, false, false, true])
                // This transaction's own scans, so no other backend's counters can interfere.
                let scans = try await connection.query(
                    """
                    SELECT COALESCE(sum(seq_scan), 0)::bigint, COALESCE(sum(idx_scan), 0)::bigint FROM pg_stat_xact_user_tables
                    WHERE relname LIKE 'events\\_%'
                    """, logger: logger)
                for try await (sequential, indexed) in scans.decode((Int64, Int64).self) {
                    #expect(sequential == 0, "no event partition read whole")
                    #expect(indexed > 0)
                }
                try await connection.query("COMMIT", logger: logger)
            }
        }
    }
}
