import Foundation
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// The event feed on both engines: every stored event once, in commit order, resumable from any line's
/// cursor, each with an id that survives export and import.
@Suite struct EventFeedStoreTests {
    /// Reads the feed after `cursor` in pages of `limit` until it has `count` events, then once more.
    ///
    /// PostgreSQL shows an event once every transaction older than its own has ended, in any database of the
    /// cluster (``EventCursor``): another test's open transaction only delays it, so the reader waits, as a
    /// following reader does.
    static func read(
        _ count: Int, from store: any PushTallyStore, after cursor: EventCursor = .start, limit: Int = 2
    ) async throws -> (events: [ExportedEvent], cursor: EventCursor) {
        var events: [ExportedEvent] = []
        var cursor = cursor
        while true {
            let page = try await store.eventFeed(after: cursor, limit: limit)
            events += page.events
            #expect(page.events.count <= limit)
            if page.events.isEmpty {
                #expect(page.cursor == cursor, "an empty page keeps the reader where it was")
                if events.count >= count { return (events, cursor) }
                try await Task.sleep(for: .milliseconds(20))
            }
            cursor = page.cursor
        }
    }

    @Test(arguments: StoreKind.allCases) func everyEventOnceInCommitOrderWithItsIDTypeAndCursor(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let source = try await store.databaseID()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            // One commit per call, so the feed's order is the calls' order.
            var sent: [IncomingEvent] = []
            for event in EventColumnRoundTripTests.everyColumnFilled(at: now) + [receipt("p-feed", device: "dev-2", receipt: "r-2")] {
                _ = try await store.ingest([event])
                sent.append(event)
            }
            let (events, last) = try await Self.read(5, from: store)
            #expect(events.map(\.receipt_id) == sent.map(\.receiptID), "in commit order, each once")
            #expect(events.map(\.type) == ["receipt", "action", "session", "conversion", "receipt"])
            #expect(events.map(\.event_id) == events.map { "\(source):\($0.seq)" })
            let cursors = try events.map { try EventCursor(text: try #require($0.cursor)) }
            #expect(cursors == cursors.sorted() && Set(cursors).count == cursors.count, "cursors rise")
            #expect(cursors.last == last)
            // Resuming from any line's cursor gives exactly the lines after it.
            for (index, cursor) in cursors.enumerated() {
                #expect(try await Self.read(events.count - index - 1, from: store, after: cursor, limit: 3).events == Array(events[(index + 1)...]))
            }
            // What commits later comes after the last cursor.
            _ = try await store.ingest([receipt("p-feed", device: "dev-3", receipt: "r-later")])
            #expect(try await Self.read(1, from: store, after: last).events.map(\.receipt_id) == ["r-later"])
        }
    }

    /// Deleting the newest events (a device forgotten, a prune up to now) never hands their positions out again:
    /// a reader that passed them would skip the events stored there next.
    @Test(arguments: StoreKind.allCases) func positionsAreNeverReusedAfterTheNewestEventsAreDeleted(kind: StoreKind) async throws {
        let clock = TestClock()
        try await withStore(kind, clock: clock.function) { store in
            _ = try await store.ingest([receipt("p-gone", device: "kept", receipt: "r-kept")])
            _ = try await store.ingest([receipt("p-gone", device: "forgotten", receipt: "r-1")])
            _ = try await store.ingest([receipt("p-gone", device: "forgotten", receipt: "r-2")])
            let (read, passed) = try await Self.read(3, from: store)
            #expect(read.count == 3)
            #expect(try await store.forget(deviceID: "forgotten") == 2)
            _ = try await store.ingest([receipt("p-gone", device: "new", receipt: "r-after-forget")])
            let (afterForget, cursor) = try await Self.read(1, from: store, after: passed)
            #expect(afterForget.map(\.receipt_id) == ["r-after-forget"], "stored past the forgotten events' positions")
            #expect(afterForget.first.map { $0.seq > read.last!.seq } == true)

            clock.advance(seconds: 60)
            #expect(try await store.prune(receivedBefore: clock.now, batchSize: 1) == 2, "every event pruned")
            _ = try await store.ingest([receipt("p-gone", device: "new", receipt: "r-after-prune")])
            #expect(try await Self.read(1, from: store, after: cursor).events.map(\.receipt_id) == ["r-after-prune"])
            #expect(try await Self.read(1, from: store).events.map(\.receipt_id) == ["r-after-prune"])
        }
    }

    /// An imported event keeps the id it had where it was first stored, through a second export and import;
    /// the importing database's own events get its own ids.
    @Test(arguments: StoreKind.allCases) func importedEventsKeepTheirIDs(kind: StoreKind) async throws {
        try await withStore(kind) { first in
            _ = try await first.ingest([receipt("p-import", device: "d", receipt: "r-a"), receipt("p-import", device: "d", receipt: "r-b")])
            let original = try await Self.read(2, from: first).events
            let firstSource = try await first.databaseID()
            try await withStore(kind) { second in
                let exported = EventsBox()
                _ = try await first.exportEvents(sinceMillis: nil, untilMillis: nil) { exported.append($0) }
                #expect(try await second.importEvents(exported.events, source: firstSource) == 2)
                _ = try await second.ingest([receipt("p-import", device: "d", receipt: "r-own")])
                let fed = try await Self.read(3, from: second).events
                #expect(fed.map(\.receipt_id) == ["r-a", "r-b", "r-own"])
                #expect(Array(fed.prefix(2)).map(\.event_id) == original.map(\.event_id), "the first database's ids")
                let secondSource = try await second.databaseID()
                #expect(fed.last?.event_id == "\(secondSource):\(fed.last!.seq)")
                // An export older than ids (no event_id) gets the ids its source would have given.
                try await withStore(kind) { third in
                    let unnamed = exported.events.map { event in
                        var event = event
                        event.event_id = nil
                        return event
                    }
                    _ = try await third.importEvents(unnamed, source: firstSource)
                    #expect(try await Self.read(2, from: third).events.map(\.event_id) == original.map(\.event_id))
                }
            }
        }
    }

    /// Two collectors on one database. One commit draws its id and then waits (held open on a session of the
    /// test's own, as a slow collector's would be) while the other collector commits a later id: the later id is
    /// not read until the earlier commit ends, and then both are, so a reader that resumes skips neither. Read
    /// by id alone, the later id would have been read first and the earlier one skipped for good.
    @Test func aCommitThatEndsAfterALaterIDIsNeverSkipped() async throws {
        try await FreshStore.with(.postgres, name: "feed-interleave") { fresh in
            let collectorA = try #require(try await fresh.open() as? PostgresStore)
            let collectorB = try #require(try await fresh.open() as? PostgresStore)
            defer {
                collectorA.closeInBackground()
                collectorB.closeInBackground()
            }
            _ = try await collectorA.ingest([receipt("p-interleave", device: "d", receipt: "r-first")])
            let (before, passed) = try await Self.read(1, from: collectorA)
            #expect(before.map(\.receipt_id) == ["r-first"])
            try await TestPostgres.withConnection(to: try PostgresURL(try #require(fresh.postgresURL))) { held, logger in
                try await held.query("BEGIN", logger: logger)
                try await held.query(
                    """
                    INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate, receipt_id)
                    VALUES ('p-interleave', 0, '', \(unescaped: String(before[0].received_at)), 0, false, 'r-held')
                    """, logger: logger)
                _ = try await collectorB.ingest([receipt("p-interleave", device: "d", receipt: "r-later-id")])
                var byID: [String] = []
                for try await row in try await held.query("SELECT receipt_id FROM events ORDER BY id", logger: logger) {
                    byID.append(try row.decode(String.self))
                }
                #expect(byID == ["r-first", "r-held", "r-later-id"], "the held commit drew the lower id")
                // Committed, but behind a commit still running: not read yet.
                let (whileHeld, stillPassed) = try await Self.read(0, from: collectorB, after: passed)
                #expect(whileHeld.isEmpty, "\(whileHeld.map(\.receipt_id))")
                #expect(stillPassed == passed)
                try await held.query("COMMIT", logger: logger)
            }
            let after = try await Self.read(2, from: collectorA, after: passed).events
            #expect(Set(after.map(\.receipt_id)) == ["r-held", "r-later-id"], "neither skipped")
            #expect(after.first?.receipt_id == "r-held", "in commit order: the held transaction began first")
        }
    }

    /// A streaming standby serves the feed with its primary's ids and cursors, so a reader may move between them.
    @Test func aStandbyServesTheSameFeedAsItsPrimary() async throws {
        try await TestStandby.withStandbyAndDatabase { standby, url in
            let primary = try await PostgresStore(url: url, deviceSecretPath: nil, connectionTimeout: FreshStore.patientCommitTimeout)
            defer { primary.closeInBackground() }
            for n in 1...3 { _ = try await primary.ingest([receipt("p-standby", receipt: "r\(n)")]) }
            let fromPrimary = try await Self.read(3, from: primary)
            try await standby.waitForCatchUp(primaryURL: url)
            let replica = try await PostgresStore.openReadReplica(url: try standby.url(of: url))
            defer { replica.closeInBackground() }
            let fromStandby = try await Self.read(3, from: replica)
            #expect(fromStandby.events == fromPrimary.events, "the same lines, cursors and ids")
            // Half on the primary, the rest on the standby: nothing skipped, nothing twice.
            let half = try await primary.eventFeed(after: .start, limit: 2)
            _ = try await primary.ingest([receipt("p-standby", receipt: "r4")])
            try await standby.waitForCatchUp(primaryURL: url)
            let rest = try await Self.read(2, from: replica, after: half.cursor)
            #expect((half.events + rest.events).map(\.receipt_id) == ["r1", "r2", "r3", "r4"])
        }
    }

    /// Two collectors committing at once while a reader follows: every acknowledged event is read exactly once.
    @Test func twoCollectorsAndAFollowingReaderLoseAndRepeatNothing() async throws {
        try await FreshStore.with(.postgres, name: "feed-follow") { fresh in
            let collectors = [try await fresh.open(), try await fresh.open()]
            let reader = try await fresh.open()
            defer { for store in collectors + [reader] { store.closeInBackground() } }
            let perCollector = 150
            let total = collectors.count * perCollector
            // The reader resumes from its cursor, page by page, while the commits go on.
            async let following: [String] = {
                var read: [String] = []
                var cursor = EventCursor.start
                while read.count < total {
                    let page = try await reader.eventFeed(after: cursor, limit: 7)
                    read += page.events.compactMap(\.receipt_id)
                    cursor = page.cursor
                    if page.events.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                }
                return read
            }()
            let acknowledged = try await withThrowingTaskGroup(of: [String].self) { group in
                for (index, collector) in collectors.enumerated() {
                    group.addTask {
                        var stored: [String] = []
                        for n in 0..<perCollector {
                            let id = "c\(index)-\(n)"
                            _ = try await collector.ingest([receipt("p-follow", device: "d\(n % 7)", receipt: id)])
                            stored.append(id)
                        }
                        return stored
                    }
                }
                var all: [String] = []
                for try await stored in group { all += stored }
                return all
            }
            let read = try await following
            #expect(read.count == total)
            #expect(read.count == Set(read).count, "nothing read twice")
            #expect(Set(read) == Set(acknowledged), "nothing skipped")
        }
    }
}
