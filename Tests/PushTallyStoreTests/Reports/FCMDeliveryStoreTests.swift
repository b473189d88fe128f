import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// FCM's delivery data (its BigQuery export of message events) imported into each store: each key counted
/// once whatever how often it is imported, rows of unknown labels counted as orphans, and the push and campaign
/// figures equal to a recount of the export.
@Suite struct FCMDeliveryStoreTests {
    static func registerPushes(_ store: any TestStore) async throws {
        for push in FCMExportFixture.registered {
            _ = try await store.register(PushRegistration(
                pushID: push, campaign: "android-sale", counts: SendCounts(targeted: 6, sent: 6, platform: "android")))
        }
        var displays: [IncomingEvent] = []
        for index in 0..<3 {
            displays.append(IncomingEvent(pushID: "fcm-1", kind: .display, receiptID: "r-\(index)", platform: "android"))
        }
        _ = try await store.ingest(displays)
    }

    static func summary(of counts: FCMExportFixture.Counts) -> FCMImportSummary {
        FCMImportSummary(
            rows: counts.rows, stored: counts.stored, duplicates: counts.duplicates, orphans: counts.orphans,
            unlabelled: counts.unlabelled)
    }

    /// Each push's FCM figures against the recount, and the stored rollup against the stored keys.
    static func checkFigures(_ store: any TestStore, _ counts: FCMExportFixture.Counts) async throws {
        let figures = try await store.pushFigures()
        for label in ["fcm-1", "fcm-2", "fcm-ghost"] {
            let push = try #require(figures.first { $0.pushID == label })
            #expect(push.funnel.fcm.delivered == counts.count(label, "MESSAGE_DELIVERED"))
            #expect(push.funnel.fcm.accepted == counts.count(label, "MESSAGE_ACCEPTED"))
            #expect(push.funnel.fcm.failedByReason == counts.errors(label))
        }
        #expect(figures.first { $0.pushID == "fcm-ghost" }?.isOrphan == true)
        let keys = try await store.textRows("SELECT push_id, platform, event, COUNT(*) FROM fcm_deliveries WHERE push_id <> '' GROUP BY push_id, platform, event ORDER BY 1, 2, 3")
        let rollup = try await store.textRows("SELECT push_id, platform, event, count FROM rollup_fcm ORDER BY 1, 2, 3")
        #expect(keys == rollup)
        // Unlabelled rows are kept (so they count once) and counted nowhere.
        #expect(try await store.integers("SELECT COUNT(*) FROM fcm_deliveries WHERE push_id = ''") == [Int64(counts.unlabelled)])
    }

    @Test(arguments: StoreKind.allCases) func anExportCountsOnceAndEqualsARecount(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Self.registerPushes(store)
            let rows = try FCMExportReader.rows(Data(FCMExportFixture.text.utf8))
            let counts = try FCMExportFixture.recount(FCMExportFixture.text)
            #expect(try await store.importFCM(rows) == Self.summary(of: counts))
            #expect(counts.stored == 10 && counts.duplicates == 1 && counts.orphans == 1 && counts.unlabelled == 1)
            try await Self.checkFigures(store, counts)

            // A re-import stores nothing and changes nothing.
            let again = try await store.importFCM(rows)
            #expect(again == FCMImportSummary(rows: counts.rows, stored: 0, duplicates: counts.rows))
            try await Self.checkFigures(store, counts)
            // Instance ids are stored keyed, never as sent.
            #expect(try await store.column("SELECT instance_key FROM fcm_deliveries").allSatisfy { $0 == "" || $0!.hasPrefix("d1:") })

            // The campaign's row and the orphan row; by platform, Android's deliveries beside its displays.
            let campaigns = try await store.campaignRows(ReportFilter(), by: nil)
            let sale = try #require(campaigns.first { $0.campaign == "android-sale" })
            #expect(sale.funnel.fcm.delivered == counts.count("fcm-1", "MESSAGE_DELIVERED") + counts.count("fcm-2", "MESSAGE_DELIVERED"))
            #expect(campaigns.first { $0.isOrphan }?.funnel.fcm.delivered == counts.count("fcm-ghost", "MESSAGE_DELIVERED"))
            let split = try await store.campaignRows(ReportFilter(), by: .platform)
            let android = try #require(split.first { $0.campaign == "android-sale" && $0.attribute == .text("android") })
            #expect(android.funnel.fcm.delivered == sale.funnel.fcm.delivered)
            #expect(android.funnel.displayedUnique == 3)
            let ios = try #require(split.first { $0.campaign == "android-sale" && $0.attribute == .text("ios") })
            #expect(ios.funnel.fcm.failedByReason == counts.errors("fcm-2", platform: "ios"))

            let table = try await store.report(ReportRequest(.campaigns(by: .platform)))
            let row = try #require(table.rows.first { $0.contains { $0.0 == "platform" && $0.1 == .text("android") } && $0.first?.1 == .text("android-sale") })
            let cell = { (name: String) in row.first { $0.0 == name }?.1 }
            #expect(cell("device_delivered") == .integer(3))
            #expect(cell("displayed_of_delivered") == .rate(1.0))
            #expect(cell("fcm_failed") == .integer(2))
            #expect(cell("display_rate") == .rate(3.0 / 12))

            // One push narrowed to a platform keeps that platform's FCM events.
            let pushIOS = try await store.supersededPushFigures(ReportFilter(pushID: "fcm-2", platform: "ios"))
            #expect(pushIOS.map(\.funnel.fcm.failedByReason) == [counts.errors("fcm-2", platform: "ios")])
            #expect(pushIOS.map(\.funnel.fcm.delivered) == [0])
        }
    }

    /// A row that mixes platforms divides only the displays of the platforms FCM delivered to by FCM's
    /// deliveries: iOS and web displays of a push FCM sent to Android are not its deliveries' displays, and the
    /// rate can no longer pass 100 %. Displays that named no platform stay in.
    @Test(arguments: StoreKind.allCases) func aRowThatMixesPlatformsCountsOnlyTheDisplaysOfFCMsPlatforms(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.register(PushRegistration(
                pushID: "mix-1", campaign: "mixed", counts: SendCounts(targeted: 10, sent: 10, platform: "android")))
            let named: [(String, String?)] = [
                ("a1", "android"), ("a2", "Android"), ("i1", "ios"), ("i2", "ios"), ("i3", "ios"), ("w1", "web"), ("u1", nil),
            ]
            _ = try await store.ingest(named.map { IncomingEvent(pushID: "mix-1", kind: .display, receiptID: $0.0, platform: $0.1) })
            let delivered = (1...4).map {
                FCMExportRow(messageID: "m\($0)", instanceID: "i\($0)", event: .delivered, pushID: "mix-1", platform: "android")
            }
            _ = try await store.importFCM(delivered)
            let table = try await store.report(ReportRequest(.campaigns(by: nil)))
            let row = try #require(table.rows.first { $0.first?.1 == .text("mixed") })
            let cell = { (name: String) in row.first { $0.0 == name }?.1 }
            #expect(cell("displayed_unique") == .integer(7))
            #expect(cell("device_delivered") == .integer(4))
            // Seven displays, four of them on iOS and the web: three of FCM's four deliveries were shown.
            #expect(cell("displayed_of_delivered") == .rate(0.75))
            let push = try #require(try await store.pushFigures().first { $0.pushID == "mix-1" })
            #expect(push.funnel.fcm.otherPlatformDisplays == 4)
        }
    }

    /// A file of more rows than one transaction stores goes in turns; a key repeated in a later turn is a
    /// duplicate all the same, and the figures equal a recount.
    @Test(arguments: StoreKind.allCases) func anImportLargerThanOneTransactionCountsEachKeyOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await Self.registerPushes(store)
            let keys = FCMImportPlan.rowsPerTransaction + 1_000
            // Every key twice, the second far from the first, and one three times.
            let rows = (0...(2 * keys)).map { index in
                FCMExportRow(messageID: "m\(index % keys)", instanceID: "i\(index % keys)", event: .delivered, pushID: "fcm-2", platform: "android")
            }
            #expect(FCMImportPlan.chunks(rows).count == 3)
            #expect(try await store.importFCM(rows) == FCMImportSummary(rows: rows.count, stored: keys, duplicates: keys + 1))
            let push = try #require(try await store.pushFigures().first { $0.pushID == "fcm-2" })
            #expect(push.funnel.fcm.delivered == keys)
            #expect(try await store.integers("SELECT COUNT(*) FROM fcm_deliveries WHERE push_id = 'fcm-2'") == [Int64(keys)])
        }
    }

    @Test(arguments: StoreKind.allCases) func aPushRegisteredAfterItsDeliveriesIsNoLongerAnOrphan(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let rows = try FCMExportReader.rows(Data(FCMExportFixture.text.utf8))
            let first = try await store.importFCM(rows)
            #expect(first.orphans == first.stored - first.unlabelled)
            _ = try await store.register(PushRegistration(pushID: "fcm-ghost", campaign: "late"))
            let campaigns = try await store.campaignRows(ReportFilter(), by: nil)
            #expect(campaigns.first { $0.campaign == "late" }?.funnel.fcm.delivered == 1)
        }
    }
}
