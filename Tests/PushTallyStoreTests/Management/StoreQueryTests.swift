import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyCore
@testable import PushTallyPostgres
@testable import PushTallySQLite

/// The management tables' statements (`Sources/PushTallyCore/Queries/`) are written once and rendered per
/// dialect; these tests hold each rendering to its values, so the two engines' spellings cannot drift apart.
@Suite struct StoreQueryTests {
    /// One of every query, with values that make sense run in this order on a fresh database.
    static let samples: [any StoreQuery] = {
        let alert = Alert.new(
            AlertRule(name: "receipts down", kind: .receiptsStopped, windowMillis: 3_600_000, threshold: 0.2, minSent: 100, campaign: "c",
                app: "shop"),
            at: 1_000)
        let transition = AlertTransition(alertID: alert.id, state: .firing, atMillis: 2_000, value: 0.1, detail: "low")
        let endpoint = WebhookEndpoint(
            id: "wh_1", url: "https://example.com/hook", events: [.receiptDisplayed], description: nil, createdAtMillis: 1_000,
            status: .active)
        let message = WebhookMessage(id: "msg_1", type: .receiptDisplayed, createdAtMillis: 1_000, body: #"{"type":"x"}"#)
        let claimed = ClaimedDelivery(
            messageID: message.id, endpointID: endpoint.id, url: endpoint.url, secret: "s", body: message.body, attempts: 0,
            firstAttemptMillis: nil, leasedUntilMillis: 26_000)
        let attempt = RecordedAttempt(
            delivery: claimed, update: DeliveryUpdate(.gone, of: claimed, at: 2_000, policy: WebhookRetryPolicy()), at: 2_000)
        let push = PushRegistration(
            pushID: "p1", campaign: "c", title: "t", sentAtMillis: 1_000, app: "shop", environment: "production",
            counts: SendCounts(targeted: 10, sent: 9, failed: ["Unregistered": 1], platform: "ios"))
        return [
            Queries.InsertToken(id: "t1", role: .read, secretHash: Data([1, 2, 3]), label: nil, createdAt: 1),
            Queries.InsertFirstAdminToken(id: "t2", secretHash: Data([4]), label: "admin", createdAt: 2),
            Queries.SelectTokens(),
            Queries.SelectActiveTokensExist(),
            Queries.SelectActiveToken(id: "t1"),
            Queries.RevokeToken(id: "t1", revokedAt: 3),
            Queries.InsertAlert(alert),
            Queries.SelectAlerts(),
            Queries.SelectAlertExists(id: alert.id),
            Queries.ClaimAlertEvaluation(now: 5_000, intervalMillis: 1_000),
            Queries.UpdateAlertState(alert),
            Queries.InsertAlertTransition(alertID: alert.id, transition),
            Queries.SelectAlertHistory(alertID: alert.id, limit: 10),
            Queries.DeleteAlertHistory(alertID: alert.id),
            Queries.DeleteAlert(id: alert.id),
            Queries.InsertWebhook(endpoint, secret: "s"),
            Queries.SelectWebhooks(),
            Queries.SelectSubscriptions(),
            Queries.InsertWebhookMessages([message]),
            Queries.InsertPendingDeliveries([QueuedMessage(message: message, endpointIDs: [endpoint.id])]),
            Queries.SelectDeliveries(endpointID: endpoint.id, status: nil, limit: 10),
            Queries.SelectDeliveries(endpointID: endpoint.id, status: .pending, limit: 10),
            Queries.SelectDeliveriesDue(now: 1_000),
            Queries.ClaimDeliveries(now: 1_000, leaseMillis: 25_000, limit: 10),
            Queries.RecordDeliveryAttempt(attempt),
            Queries.UpdateEndpointStatus(endpointID: endpoint.id, status: .disabled),
            Queries.ReplayDeliveries(endpointID: endpoint.id, sinceMillis: 0, now: 3_000),
            Queries.SelectUndelivered(),
            Queries.SelectOutboxWaiting(),
            Queries.SelectOutboxRows(limit: 1_000),
            Queries.DeleteOutboxRows(seqs: [1, 2]),
            Queries.PruneDeliveries(createdBefore: 5_000),
            Queries.DeleteUndeliveredMessages(),
            Queries.DeleteEndpointDeliveries(endpointID: endpoint.id),
            Queries.DeleteWebhook(id: endpoint.id),
            Queries.InsertPush(push, now: 2_000),
            Queries.UpdatePush(push, now: 3_000),
            Queries.UpdatePushAttributes(pushID: push.pushID, SendAttributes(variant: "b", collapseID: "k", priority: 10)),
            Queries.SelectPushSentAt(pushID: push.pushID),
            Queries.InsertSendsOnlyPush(pushID: "p2", campaign: "c", now: 2_000),
            Queries.UpsertPushSends(pushID: push.pushID, batchID: "", push.counts),
            Queries.UpsertSendPlatform(pushID: push.pushID, batchID: "", platform: "ios"),
            Queries.DeleteSendPlatform(pushID: push.pushID, batchID: ""),
            Queries.DeletePushFailures(pushID: push.pushID, batchID: ""),
            Queries.InsertPushFailures(pushID: push.pushID, batchID: "", [("Unregistered", 1), ("BadDeviceToken", 2)]),
            Queries.SelectOtherSends(pushID: push.pushID, batchID: "b2"),
            Queries.DeletePendingTiming(target: .rollups, pushID: push.pushID),
            Queries.RecordHealthcheck(checkedAt: 4_000),
            Queries.CountTableRows(table: "pushes"),
            Queries.SelectDatabaseID(),
            Queries.SelectExportedEvents(sinceMillis: 0, untilMillis: .max),
            Queries.SelectFeedBound(),
            Queries.SelectFeedEvents(after: .start, limit: 10, bound: "0"),
            Queries.SelectFeedSends(after: .start, limit: 10, bound: "0"),
            Queries.SelectFeedFCMDeliveries(after: .start, limit: 10, bound: "0"),
            Queries.InsertSendRecord(position: nil, pushID: push.pushID, batchID: "b3", SendCounts(sent: 1), recordedAt: 4_000),
            Queries.SelectDeliveryPush(pushID: push.pushID),
            Queries.SelectSendRecord(pushID: push.pushID, batchID: "deliveries:ios"),
            Queries.UpsertDeviceState(DeviceState(deviceKey: "d1:sample", app: "com.example", platform: "ios")),
            Queries.SelectDeviceStates(keys: ["d1:sample", "d1:other"]),
            Queries.SelectDeviceStates(sentSince: 0),
            Queries.SelectDeviceActivity(keys: ["d1:sample"]),
            Queries.DeleteDeviceState(deviceKey: "d1:sample"),
            Queries.PruneDeviceStates(before: 0),
            Queries.ClaimGoneDevices(keys: ["d1:sample"], sinceMillis: 0, nowMillis: 4_000),
            Queries.NotePrunedBefore(cutoff: 6_000),
            Queries.NotePrunedBefore(cutoff: 5_000),
            Queries.SelectPrunedBefore(),
            Queries.DeleteDeviceDedupeKeys(suffix: "device"),
        ]
    }()

    @Test func eachRenderingHasAPlaceholderPerValue() {
        for query in Self.samples {
            let sqlite = query.statement(.sqlite)
            let postgres = query.statement(.postgres)
            let name = String(describing: type(of: query))
            #expect(sqlite.sql.filter { $0 == "?" }.count == query.values.count, "\(name) on SQLite")
            #expect(!postgres.sql.contains("?"), "\(name) on PostgreSQL")
            let numbers = Self.placeholderNumbers(postgres.sql)
            #expect(numbers == Set(query.values.indices.map { $0 + 1 }), "\(name) on PostgreSQL")
        }
    }

    @Test func postgresPlaceholdersAreNumberedInOrder() {
        #expect(SQLDialect.postgres.placeholders("a = ? AND (? IS NULL OR b = ?)") == "a = $1 AND ($2 IS NULL OR b = $3)")
        #expect(SQLDialect.sqlite.placeholders("a = ? AND b = ?") == "a = ? AND b = ?")
    }

    /// A management query added under `Queries/` is added here too, so both engines run it. The report and
    /// timeline reads (`Queries/Reports/`, `Queries/Timeline/`) are run on both engines by the report and
    /// timeline tests, against what was stored.
    @Test func everyQueryFileHasASample() throws {
        let folder = PackageRoot.file("Sources/PushTallyCore/Queries")
        let areas = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .filter { !["Reports", "Timeline"].contains($0.lastPathComponent) }
        let files = try areas.flatMap { area in
            try FileManager.default.contentsOfDirectory(atPath: area.path).filter { $0.hasSuffix(".swift") }
                .map { String($0.dropLast(".swift".count)) }
        }
        #expect(!files.isEmpty)
        let sampled = Set(Self.samples.map { String(describing: type(of: $0)) })
        #expect(Set(files) == sampled)
    }

    /// Each engine runs every query with its values (an engine refuses a statement whose placeholders and values
    /// disagree in number, or SQL it cannot parse against the migrated schema), and both answer each with as many
    /// rows: what a `RETURNING` statement changed, what a read found.
    @Test func bothEnginesRunEveryQueryAlike() async throws {
        var rowCounts: [StoreKind: [Int]] = [:]
        for kind in StoreKind.allCases {
            rowCounts[kind] = try await withStore(kind) { store in
                var counts: [Int] = []
                for query in Self.samples { counts.append(try await Self.run(query, on: store)) }
                // The first admin token is not stored beside an active token; the alert and endpoint were deleted.
                #expect(try await store.listTokens().map(\.id) == ["t1"])
                #expect(try await store.alerts() == [])
                #expect(try await store.webhooks() == [])
                #expect(try await Self.prunedBefore(on: store) == 6_000, "a cutoff only moves forward")
                return counts
            }
        }
        #expect(rowCounts[.sqlite] == rowCounts[.postgres])
        #expect(rowCounts[.sqlite]?.contains { $0 > 0 } == true)
    }

    /// How many rows `query` returned on `store`'s engine.
    private static func run(_ query: some StoreQuery, on store: any TestStore) async throws -> Int {
        if let sqlite = store as? SQLiteStore { return try await sqlite.write { db in try db.run(query) } }
        let postgres = try #require(store as? PostgresStore)
        return try await postgres.write(query)
    }

    /// The prune cutoff as noted, read back through the query both engines read it with.
    private static func prunedBefore(on store: any TestStore) async throws -> Int64? {
        if let sqlite = store as? SQLiteStore { return try await sqlite.read { db in try db.fetch(Queries.SelectPrunedBefore()).first ?? nil } }
        let postgres = try #require(store as? PostgresStore)
        return try await postgres.fetch(Queries.SelectPrunedBefore()).first ?? nil
    }

    private static func placeholderNumbers(_ sql: String) -> Set<Int> {
        var numbers: Set<Int> = []
        var rest = Substring(sql)
        while let dollar = rest.firstIndex(of: "$") {
            rest = rest[rest.index(after: dollar)...]
            let digits = rest.prefix { $0.isNumber }
            if let number = Int(digits) { numbers.insert(number) }
        }
        return numbers
    }
}
