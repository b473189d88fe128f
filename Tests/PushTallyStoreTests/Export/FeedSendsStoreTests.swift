import Foundation
import GRDB
import Logging
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
@testable import PushTallySQLite
import PushTallyTestSupport
import Testing

/// Send records and FCM's delivery data in the event feed, on both engines: each stored record and each new
/// FCM row is a line, in commit order among raw events, with its own id and cursor; a database from before the
/// log reads what it held first.
@Suite struct FeedSendsStoreTests {
    /// A reason with the two characters JSON escapes, beside a plain one.
    static let reasons: [String: Int64] = ["Unregistered": 2, #"Bad"Token\"#: 1]
    static let sentAt: Int64 = 1_780_000_000_000

    @Test(arguments: StoreKind.allCases) func sendRecordsAndFCMDeliveriesAreLinesInCommitOrder(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let source = try await store.databaseID()
            let fcm = [
                FCMExportRow(messageID: "m-1", instanceID: "i-1", event: .delivered, pushID: "p-send", platform: "android", eventMillis: Self.sentAt + 5),
                FCMExportRow(messageID: "m-2", instanceID: nil, event: .accepted, pushID: nil, platform: "android"),
            ]
            _ = try await store.ingest([receipt("p-send", device: "d", receipt: "r-1")])
            try await store.register(PushRegistration(
                pushID: "p-send", campaign: "Spring 春", sentAtMillis: Self.sentAt, app: "com.example",
                counts: SendCounts(targeted: 13, sent: 10, failed: Self.reasons, platform: "ios")))
            _ = try await store.ingest([receipt("p-send", device: "d", receipt: "r-2")])
            try await store.addSends(SendBatch(pushID: "p-send", batchID: "b-1", counts: SendCounts(targeted: 5, sent: 5)))
            _ = try await store.importFCM(fcm)
            try await store.addSends(SendBatch(pushID: "p-send", batchID: "b-1", counts: SendCounts(targeted: 7, sent: 7)))
            #expect(try await store.importFCM(fcm).stored == 0)
            _ = try await store.ingest([receipt("p-send", device: "d", receipt: "r-3")])

            let (events, last) = try await EventFeedStoreTests.read(8, from: store, limit: 3)
            #expect(events.map(\.type) == ["receipt", "send", "receipt", "send", "fcm_delivery", "fcm_delivery", "send", "receipt"])
            #expect(events.map(\.event_id) == events.map { "\(source):\($0.seq)" })
            #expect(Set(events.map(\.seq)).count == events.count, "one run of positions for every table")
            let cursors = try events.map { try EventCursor(text: try #require($0.cursor)) }
            #expect(cursors == cursors.sorted() && Set(cursors).count == cursors.count)
            for (index, cursor) in cursors.enumerated() {
                let rest = try await EventFeedStoreTests.read(events.count - index - 1, from: store, after: cursor, limit: 2).events
                #expect(rest == Array(events[(index + 1)...]))
            }

            let registration = events[1]
            #expect(registration.push_id == "p-send" && registration.batch_id == "" && registration.campaign == "Spring 春")
            #expect(registration.kind == "send" && registration.app == "com.example" && registration.platform == "ios")
            #expect(registration.targeted == 13 && registration.sent == 10 && registration.failed == 3)
            #expect(registration.failures == #"{"Bad\"Token\\":1,"Unregistered":2}"#)
            #expect(registration.sent_at == Self.sentAt && registration.event_time == Self.sentAt)
            #expect(registration.duplicate == false && registration.device_id == nil)
            let failures = try JSONDecoder().decode([String: Int64].self, from: Data(try #require(registration.failures).utf8))
            #expect(failures == Self.reasons, "the refusals as JSON a warehouse parses")
            #expect(events[3].batch_id == "b-1" && events[3].sent == 5 && events[3].failures == "{}" && events[3].campaign == "Spring 春")
            #expect(events[6].batch_id == "b-1" && events[6].sent == 7, "a replaced batch is a new line, the later one wins")

            let delivered = events[4]
            #expect(delivered.kind == "fcm_delivery" && delivered.message_id == "m-1" && delivered.event == "MESSAGE_DELIVERED")
            #expect(delivered.push_id == "p-send" && delivered.platform == "android" && delivered.event_time == Self.sentAt + 5)
            #expect(delivered.device_id?.hasPrefix("d1:") == true, "the instance id keyed, as device ids are")
            #expect(events[5].push_id == "" && events[5].device_id == nil && events[5].event_time == events[5].received_at)

            // Later records come after the last cursor.
            try await store.addSends(SendBatch(pushID: "p-send", batchID: "b-2", counts: SendCounts(sent: 1)))
            #expect(try await EventFeedStoreTests.read(1, from: store, after: last).events.map(\.batch_id) == ["b-2"])
        }
    }

    /// After the newest raw events are deleted, a send record and the next raw event still take positions past
    /// every one a reader passed.
    @Test(arguments: StoreKind.allCases) func sendPositionsStayPastDeletedEvents(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            _ = try await store.ingest([receipt("p-prune", device: "d", receipt: "r-1")])
            _ = try await store.ingest([receipt("p-prune", device: "d", receipt: "r-2")])
            let (_, passed) = try await EventFeedStoreTests.read(2, from: store)
            clock.advance(seconds: 60)
            #expect(try await store.prune(receivedBefore: clock.now, batchSize: 10) == 2)
            try await store.register(PushRegistration(pushID: "p-prune", campaign: "c", counts: SendCounts(sent: 2)))
            _ = try await store.ingest([receipt("p-prune", device: "d", receipt: "r-3")])
            let after = try await EventFeedStoreTests.read(2, from: store, after: passed).events
            #expect(after.map(\.type) == ["send", "receipt"])
            #expect(after.map(\.receipt_id) == [nil, "r-3"])
        }
    }

    /// A SQLite database from before the send log: its send records (as they stand) and FCM rows are read after
    /// every raw event it held, so a reader already past those reads them next; what is stored later follows.
    @Test func aSQLiteDatabaseFromBeforeTheLogReadsItsRecordsAfterItsEvents() async throws {
        try await FreshStore.with(.sqlite, name: "feed-upgrade") { fresh in
            let old = try DatabaseQueue(path: fresh.sqlitePath)
            try Migrations.migrator.migrate(old, upTo: "v23-event-ids")
            try await old.write { db in try Self.oldRows { try db.execute(sql: $0) } }
            try old.close()
            try await Self.checkUpgrade(try await fresh.open())
        }
    }

    @Test func aPostgreSQLDatabaseFromBeforeTheLogReadsItsRecordsAfterItsEvents() async throws {
        try await FreshStore.with(.postgres, name: "feed-upgrade") { fresh in
            let url = try PostgresURL(try #require(fresh.postgresURL))
            try await PostgresSchema.migrate(
                url, nowMillis: StoreConfiguration.systemClock(), limits: .init(through: 27), logger: Logger(label: "test"))
            try await TestPostgres.withConnection(to: url) { connection, logger in
                var statements: [String] = []
                try Self.oldRows { statements.append($0) }
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            }
            try await Self.checkUpgrade(try await fresh.open())
        }
    }

    /// Rows as a database before the log held them: two raw events, a push with a registration's totals (two
    /// refusals) and a batch, and two FCM rows.
    private static func oldRows(_ execute: (String) throws -> Void) throws {
        let now = StoreConfiguration.systemClock()
        for receipt in ["r-old-1", "r-old-2"] {
            try execute("""
                INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate, receipt_id)
                VALUES ('p-old', 0, '', \(now), \(now), false, '\(receipt)')
                """)
        }
        try execute("""
            INSERT INTO pushes (push_id, campaign, sent_at, app, created_at, updated_at)
            VALUES ('p-old', 'old-campaign', \(sentAt), 'com.example', \(now), \(now))
            """)
        try execute("INSERT INTO push_sends (push_id, batch_id, targeted, sent) VALUES ('p-old', '', 10, 8), ('p-old', 'b-1', 3, 3)")
        try execute("INSERT INTO push_failures (push_id, batch_id, reason, count) VALUES ('p-old', '', 'Unregistered', 1), ('p-old', '', 'BadDeviceToken', 1)")
        try execute("INSERT INTO push_send_platforms (push_id, batch_id, platform) VALUES ('p-old', '', 'ios')")
        try execute("""
            INSERT INTO fcm_deliveries (message_id, instance_key, event, push_id, platform, event_time, imported_at)
            VALUES ('m-1', '', 'MESSAGE_ACCEPTED', 'p-old', 'android', NULL, \(now)),
                   ('m-2', '', 'MESSAGE_ACCEPTED', 'p-old', 'android', NULL, \(now))
            """)
    }

    private static func checkUpgrade(_ store: any PushTallyStore) async throws {
        defer { store.closeInBackground() }
        let (events, last) = try await EventFeedStoreTests.read(6, from: store, limit: 4)
        #expect(events.map(\.type) == ["receipt", "receipt", "send", "send", "fcm_delivery", "fcm_delivery"])
        let registration = try #require(events.first { $0.type == "send" && $0.batch_id == "" })
        #expect(registration.failures == #"{"BadDeviceToken":1,"Unregistered":1}"# && registration.failed == 2)
        #expect(registration.campaign == "old-campaign" && registration.sent == 8 && registration.platform == "ios")
        #expect(registration.sent_at == sentAt && registration.app == "com.example")
        let batch = try #require(events.first { $0.batch_id == "b-1" })
        #expect(batch.sent == 3 && batch.failed == 0 && batch.failures == "{}" && batch.platform == nil)
        #expect(Set(events.map(\.seq)).count == 6)
        // What is stored after the upgrade takes the positions after them.
        _ = try await store.ingest([receipt("p-old", device: "d", receipt: "r-new")])
        try await store.addSends(SendBatch(pushID: "p-old", batchID: "b-2", counts: SendCounts(sent: 1)))
        let next = try await EventFeedStoreTests.read(2, from: store, after: last).events
        #expect(next.map(\.type) == ["receipt", "send"])
    }
}
