import Foundation
import GRDB
import PushTallyCore
import PushTallySQLite
import PushTallyTestSupport
import Testing

/// The audience report on each store: devices with a session in the range by their latest notification
/// setting, from the audience rollup, whatever order sessions arrive in, after pruning and after a backfill.
@Suite struct AudienceStoreTests {
    /// Midnight UTC three days ago: every session below is within the seven days a device clock is believed.
    static let day0 = (Int64(Date().timeIntervalSince1970 * 1000) / 86_400_000 - 3) * 86_400_000
    static let hour: Int64 = 3_600_000

    static func session(
        _ device: String, _ id: String, _ permission: NotificationPermission?, at time: Int64, app: String? = "com.example.a",
        version: String? = "1.0"
    ) -> IncomingEvent {
        var event = IncomingEvent.session(deviceID: device, sessionID: id, deviceTimeMillis: time, app: app, appVersion: version)
        event.notificationPermission = permission
        return event
    }

    /// The report as CSV records, header first.
    static func csv(_ store: any TestStore, _ grouping: AudienceGrouping?, from: Int64? = nil, to: Int64? = nil) async throws -> [String] {
        let table = try await store.report(ReportRequest(.audience(grouping), filter: ReportFilter(fromMillis: from, toMillis: to)))
        return CSVRenderer.render(table).split(separator: "\r\n").map(String.init)
    }

    /// Two days of sessions: `a` turns notifications off on day 1; `b` allows provisional delivery, then a
    /// session from a build that does not say; `c` never says; `d` is seen only on day 2, by another app.
    static let sessions: [IncomingEvent] = [
        session("a", "a1", .authorized, at: day0 + 9 * hour),
        session("a", "a2", .denied, at: day0 + 15 * hour, version: "1.1"),
        session("b", "b1", .provisional, at: day0 + 10 * hour),
        session("b", "b2", nil, at: day0 + 20 * hour),
        session("c", "c1", nil, at: day0 + 11 * hour, app: nil, version: nil),
        session("a", "a3", .denied, at: day0 + 33 * hour, version: "1.1"),
        session("d", "d1", .ephemeral, at: day0 + 34 * hour, app: "com.example.clip", version: "1.0"),
    ]

    static let header = "devices,authorized,provisional,ephemeral,denied,not_determined,unknown,opt_in_rate"

    @Test(arguments: StoreKind.allCases) func theLatestSettingInTheRangeCountsEachDeviceOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.ingest(Self.sessions)
            let day1 = Self.day0 + 24 * Self.hour
            #expect(try await Self.csv(store, nil) == [Self.header, "4,0,1,1,1,0,1,0.6666666666666666"])
            // Day 0 alone: `a` was authorized at 09:00 and denied at 15:00, so denied; `b`'s later session
            // said nothing, so its provisional setting stands; `c` never said.
            #expect(try await Self.csv(store, nil, from: Self.day0, to: day1) == [Self.header, "3,0,1,0,1,0,1,0.5"])
            // Before 12:00 on day 0, `a` was still authorized.
            #expect(try await Self.csv(store, nil, from: Self.day0, to: Self.day0 + 12 * Self.hour) == [
                Self.header, "3,1,1,0,0,0,1,1.0",
            ])
            #expect(try await Self.csv(store, .day) == [
                "day," + Self.header,
                "\(Self.dayText(Self.day0)),3,0,1,0,1,0,1,0.5",
                "\(Self.dayText(day1)),2,0,0,1,1,0,0,0.5",
            ])
            #expect(try await Self.csv(store, .app) == [
                "app," + Self.header,
                "com.example.a,2,0,1,0,1,0,0,0.5",
                "com.example.clip,1,0,0,1,0,0,0,1.0",
                ",1,0,0,0,0,0,1,",
            ])
            // By version a device counts under each version it ran: `a` as authorized on 1.0, denied on 1.1.
            #expect(try await Self.csv(store, .appVersion) == [
                "app_version," + Self.header,
                "1.0,3,1,1,1,0,0,0,1.0",
                "1.1,1,0,0,0,1,0,0,0.0",
                ",1,0,0,0,0,0,1,",
            ])
            // Nobody said: no opt-in rate.
            #expect(try await Self.csv(store, nil, from: Self.day0 + 11 * Self.hour, to: Self.day0 + 12 * Self.hour) == [
                Self.header, "1,0,0,0,0,0,1,",
            ])
            #expect(try await Self.csv(store, .day, from: Self.day0 - 86_400_000, to: Self.day0) == ["day," + Self.header])
            #expect(try await Self.csv(store, nil, from: Self.day0 - 86_400_000, to: Self.day0) == [Self.header, "0,0,0,0,0,0,0,"])
        }
    }

    static func dayText(_ millis: Int64) -> String { String(Timestamp.iso8601(millis: millis).prefix(10)) }

    /// Sessions arriving in any order, in any commits, and retried, leave the same rows (each store keys device
    /// ids with its own secret, so rows are compared without them); a tie in time goes to the same setting on
    /// both stores.
    @Test(arguments: StoreKind.allCases) func arrivalOrderDoesNotMatter(kind: StoreKind) async throws {
        var tied = Self.sessions
        tied.append(Self.session("e", "e1", .authorized, at: Self.day0 + 12 * Self.hour))
        tied.append(Self.session("e", "e2", .notDetermined, at: Self.day0 + 12 * Self.hour))
        let rows = "SELECT bucket, device_id, app, app_version, known, session_time, permission FROM rollup_audience"
        let forward = try await withStore(kind) { store in
            _ = try await store.ingest(tied)
            return try await Set(store.textRows(rows).map { row in row.enumerated().filter { $0.offset != 1 }.map { $0.element ?? "-" } })
        }
        let backward = try await withStore(kind) { store in
            for event in tied.reversed() { _ = try await store.ingest([event]) }
            _ = try await store.ingest(tied)  // every one a retry
            return try await Set(store.textRows(rows).map { row in row.enumerated().filter { $0.offset != 1 }.map { $0.element ?? "-" } })
        }
        #expect(forward == backward)
        #expect(forward.count == 8)
        #expect(forward.contains { $0.contains("not_determined") }, "the greater name wins a tie")
    }

    /// The report equals a count made from the raw sessions (exported), for every grouping and a few ranges.
    @Test(arguments: StoreKind.allCases) func theReportEqualsARecountOfTheRawSessions(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var generator = SplitMix64(state: 28)
            var events: [IncomingEvent] = []
            let permissions: [NotificationPermission?] = NotificationPermission.allCases + [nil, nil]
            for index in 0..<300 {
                let device = "device-\(generator.next() % 40)"
                let time = Self.day0 + Int64(generator.next() % (3 * 86_400_000))
                events.append(Self.session(
                    device, "s\(index)", permissions[Int(generator.next() % UInt64(permissions.count))], at: time,
                    app: ["com.example.a", "com.example.b", nil][Int(generator.next() % 3)],
                    version: ["1.0", "2.0", nil][Int(generator.next() % 3)]))
            }
            for start in stride(from: 0, to: events.count, by: 50) { _ = try await store.ingest(Array(events[start..<start + 50])) }
            let exported = EventsBox()
            _ = try await store.exportEvents(sinceMillis: nil, untilMillis: nil) { exported.append($0) }
            let ranges: [(Int64?, Int64?)] = [
                (nil, nil), (Self.day0 + 86_400_000, nil), (Self.day0 + 5 * 900_000, Self.day0 + 40 * Self.hour),
            ]
            for (from, to) in ranges {
                for grouping in [nil] + AudienceGrouping.allCases {
                    let expected = AudienceRecount.table(exported.events, grouping: grouping, from: from, to: to)
                    let table = try await store.report(ReportRequest(.audience(grouping), filter: ReportFilter(fromMillis: from, toMillis: to)))
                    #expect(CSVRenderer.render(table) == CSVRenderer.render(expected), "\(grouping.map(\.rawValue) ?? "none") \(String(describing: from))")
                }
            }
        }
    }

    /// Retention prunes raw sessions; the report reads the rollup, so it stays. Forgetting a device removes it.
    @Test(arguments: StoreKind.allCases) func pruningLeavesTheReportAndForgettingRemovesTheDevice(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.ingest(Self.sessions)
            var before: [[String]] = []
            for grouping in [nil] + AudienceGrouping.allCases { before.append(try await Self.csv(store, grouping)) }
            #expect(try await store.prune(receivedBefore: Int64(Date().timeIntervalSince1970 * 1000) + 1000, batchSize: 3) == Self.sessions.count)
            #expect(try await store.rawEventCount() == 0)
            var after: [[String]] = []
            for grouping in [nil] + AudienceGrouping.allCases { after.append(try await Self.csv(store, grouping)) }
            #expect(after == before)

            _ = try await store.forget(deviceID: "a")
            #expect(try await Self.csv(store, nil) == [Self.header, "3,0,1,1,0,0,1,1.0"])
        }
    }

    /// The migration's backfill fills the rollup from raw sessions as ingest would have.
    @Test(arguments: StoreKind.allCases) func theBackfillRebuildsWhatIngestKept(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.ingest(Self.sessions)
            _ = try await store.ingest([Self.session("a", "a1", .notDetermined, at: Self.day0 + 9 * Self.hour)])  // a retry
            let rows = "SELECT * FROM rollup_audience ORDER BY bucket, device_id, app, app_version"
            let kept = try await store.textRows(rows)
            try await Self.execute("DELETE FROM rollup_audience", on: store)
            try await Self.execute(kind == .sqlite ? SQLDialect.sqlite.audienceBackfill : SQLDialect.postgres.audienceBackfill, on: store)
            #expect(try await store.textRows(rows) == kept)
            #expect(kept.count == 7)
        }
    }
}

extension AudienceStoreTests {
    /// Runs a statement that writes (SQLite's `textRows` reads only).
    static func execute(_ sql: String, on store: any TestStore) async throws {
        if let sqlite = store as? SQLiteStore {
            try await sqlite.pool.write { try $0.execute(sql: sql) }
        } else {
            _ = try await store.textRows(sql)
        }
    }

    /// A SQLite database from before the rollup gets it filled from its raw sessions when it is opened.
    @Test func openingAnOlderSQLiteDatabaseFillsTheRollup() async throws {
        try await FreshStore.with(.sqlite, name: "v12") { fresh in
            let path = fresh.sqlitePath
            let old = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(old, upTo: "v12-media-permission")
            let rows: [(String, String, String?, Int64, Bool)] = [
                ("d1:a", "a1", "authorized", Self.day0 + 9 * Self.hour, false),
                ("d1:a", "a2", "denied", Self.day0 + 15 * Self.hour, false),
                ("d1:a", "a2", "authorized", Self.day0 + 16 * Self.hour, true),
                ("d1:b", "b1", "provisional", Self.day0 + 10 * Self.hour, false),
                ("d1:b", "b2", nil, Self.day0 + 20 * Self.hour, false),
                ("d1:c", "c1", nil, Self.day0 + 11 * Self.hour, false),
            ]
            try await old.write { db in
                for (device, id, permission, time, duplicate) in rows {
                    try db.execute(
                        sql: """
                            INSERT INTO events (push_id, kind, action, received_at, event_time, duplicate, device_id, receipt_id,
                                app, app_version, notification_permission)
                            VALUES ('', 2, '', ?, ?, ?, ?, ?, 'com.example.a', '1.0', ?)
                            """,
                        arguments: [time, time, duplicate, device, id, permission])
                }
            }
            try old.close()
            let store = try SQLiteStore(path: path, commitTimeout: FreshStore.patientCommitTimeout)
            defer { store.closeInBackground() }
            let table = try await store.report(ReportRequest(.audience(nil)))
            #expect(CSVRenderer.render(table) == Self.header + "\r\n3,0,1,0,1,0,1,0.5\r\n")
        }
    }
}

/// The audience report counted straight from exported raw sessions, as the report's definition reads.
enum AudienceRecount {
    static func table(_ events: [ExportedEvent], grouping: AudienceGrouping?, from: Int64?, to: Int64?) -> ReportTable {
        let first = from.map(EventTime.bucket(ofMillis:))
        let last = to.map { EventTime.bucket(ofMillis: $0 - 1) }
        // Per device and group: (known, time, setting), the greatest kept.
        var latest: [String: [AudienceCount.Group?: (Int, Int64, String)]] = [:]
        for event in events where event.kind == "session" && !event.duplicate {
            let bucket = EventTime.bucket(ofMillis: event.event_time)
            if let first, bucket < first { continue }
            if let last, bucket > last { continue }
            let group: AudienceCount.Group? =
                switch grouping {
                case .day: .day(bucket / 96)
                case .app: .text(event.app ?? "")
                case .appVersion: .text(event.app_version ?? "")
                case nil: nil
                }
            let permission = event.notification_permission ?? ""
            let rank = (permission.isEmpty ? 0 : 1, event.event_time, permission)
            let device = event.device_id ?? ""
            if let kept = latest[device]?[group], !(kept < rank) { continue }
            latest[device, default: [:]][group] = rank
        }
        var counts: [AudienceCount.Group?: [NotificationPermission?: Int64]] = [:]
        for groups in latest.values {
            for (group, rank) in groups { counts[group, default: [:]][NotificationPermission(rawValue: rank.2), default: 0] += 1 }
        }
        return AudienceReport.table(counts.map { AudienceCount(group: $0.key, devices: $0.value) }, grouping: grouping)
    }
}
