import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// The spelling migration on both engines: a database written by a version that stored names as sent (the
/// store's own calls take names as given, as that version's door did) is migrated, and then every name whose NFC
/// spelling was stored nowhere is in NFC in every table, every report equals what it was (and a rebuild from the
/// raw events and the ledger), new receipts and retries in either spelling land on the same push, and a name whose
/// NFC spelling names other rows is kept apart and recorded. Run again, or on a database written in NFC, it
/// changes nothing.
@Suite struct SpellingMigrationTests {
    static let decomposed = "Cafe\u{301}-1"
    static let kelvin = "\u{212A}-1"
    static let collidingNFC = "Bar\u{E9}-1"
    static let collidingNFD = "Bare\u{301}-1"
    /// The spelling kept: its NFC form is a push of its own.
    static let kept = [LegacySpelling(domain: NameDomain.pushID.rawValue, stored: collidingNFD, nfc: collidingNFC)]

    /// A receipt with every name of a receipt in the spelling given.
    static func named(_ pushID: String, device: String, receipt: String? = nil) -> IncomingEvent {
        IncomingEvent(
            pushID: pushID, kind: .display, deviceID: device, receiptID: receipt, platform: "web\u{212A}",
            appVersion: "1.0-\u{212A}", osVersion: "17 Cafe\u{301}")
    }

    /// What an older version stored: names in NFD and with the Kelvin sign across pushes, sends, failures,
    /// receipts, actions and the ledger (the first receipts are pruned into it).
    static func writeLegacyNames(_ store: any TestStore) async throws {
        var push = PushRegistration(
            pushID: decomposed, campaign: "Cafe\u{301} campaign", app: "com.cafe\u{301}",
            counts: SendCounts(sent: 10, failed: ["Unregistere\u{301}d": 2]),
            attributes: SendAttributes(variant: "A\u{30A}", collapseID: "c\u{212A}"))
        push.sentAtMillis = StoreConfiguration.systemClock() - 60_000
        _ = try await store.register(push)
        try await store.addSends(SendBatch(pushID: decomposed, batchID: "b\u{212A}", counts: SendCounts(sent: 5, platform: "web\u{212A}")))
        _ = try await store.register(PushRegistration(pushID: kelvin, campaign: "\u{212A}ampagne", counts: SendCounts(sent: 4)))
        _ = try await store.ingest([named(decomposed, device: "d1", receipt: "r1"), named(kelvin, device: "d1")])
        #expect(try await store.prune(receivedBefore: StoreConfiguration.systemClock() + 86_400_000, batchSize: 10) == 2)
        _ = try await store.ingest([named(decomposed, device: "d2", receipt: "r2"), action(decomposed, "ouvre\u{301}", device: "d1")])
    }

    /// Two pushes whose ids are two spellings of one name, each with its own figures.
    static func writeCollidingNames(_ store: any TestStore) async throws {
        _ = try await store.register(PushRegistration(pushID: collidingNFC, campaign: "plain", counts: SendCounts(sent: 7)))
        _ = try await store.register(PushRegistration(pushID: collidingNFD, campaign: "plain", counts: SendCounts(sent: 3)))
        // One commit holding both spellings counts each apart.
        _ = try await store.ingest([named(collidingNFC, device: "d1"), named(collidingNFD, device: "d1"), named(collidingNFD, device: "d2")])
    }

    /// Every report figure the tests compare, keyed by name as stored (byte for byte).
    struct Reported: Equatable {
        var pushes: [ExactText: PushFigures]
        var campaigns: [ExactText: Funnel]
        var versions: [VersionDimension: Set<VersionCount>]

        /// The figures of `store`, with every name passed through `rename` (what the migration should have done).
        static func read(_ store: any TestStore, rename: (String) -> String = { $0 }) async throws -> Reported {
            var pushes: [ExactText: PushFigures] = [:]
            for figures in try await store.pushFigures() { pushes[ExactText(rename(figures.pushID))] = figures }
            var campaigns: [ExactText: Funnel] = [:]
            for row in try await store.campaignRows(ReportFilter(), by: nil) { campaigns[ExactText(rename(row.campaign ?? ""))] = row.funnel }
            var versions: [VersionDimension: Set<VersionCount>] = [:]
            for dimension in VersionDimension.allCases {
                versions[dimension] = Set(try await store.versionCounts(ReportFilter(), dimension: dimension))
            }
            return Reported(pushes: pushes, campaigns: campaigns, versions: versions)
        }
    }

    /// What the migration does to a name: NFC, unless it is a spelling kept.
    static func migrated(_ name: String) -> String {
        kept.contains { $0.stored.utf8.elementsEqual(name.utf8) } ? name : CanonicalText.nfc(name)
    }

    /// The values of every declared name column that are not NFC, as `domain table.column value`.
    static func unnormalized(_ store: any TestStore) async throws -> [String] {
        var found: [String] = []
        for domain in NameDomain.allCases {
            for column in StoredNames.columns(domain) {
                let condition = column.condition.map { " WHERE \($0)" } ?? ""
                for value in try await store.column("SELECT DISTINCT \(column.column) FROM \(column.table)\(condition)").compactMap({ $0 })
                where SpellingMigration.isUnnormalized(value) {
                    found.append("\(domain.rawValue) \(column.table).\(column.column) \(SpellingMigration.escaped(value))")
                }
            }
        }
        return found.sorted()
    }

    /// Takes the database back to the schema before the spelling migration, so the next store opened runs it.
    static func undo(_ store: any TestStore, _ kind: StoreKind) async throws {
        try await undoMigration(
            store, kind: kind, dropping: ["legacy_spellings"], sqlite: SpellingMigration.sqliteIdentifier,
            postgres: SpellingMigration.postgresVersion)
    }

    static func sameSpellings(_ a: [LegacySpelling], _ b: [LegacySpelling]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            x.domain == y.domain && x.stored.utf8.elementsEqual(y.stored.utf8) && x.nfc.utf8.elementsEqual(y.nfc.utf8)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func namesStoredAsSentAreRenamedEverywhereAndKeepTheirFigures(_ kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let old = try await fresh.testStore()
            try await Self.writeLegacyNames(old)
            _ = try await old.register(PushRegistration(pushID: "plain-1", campaign: "plain", counts: SendCounts(sent: 1)))
            let unnormalizedBefore = try await Self.unnormalized(old)
            #expect(unnormalizedBefore.count > 20, "\(unnormalizedBefore)")
            let expected = try await Reported.read(old, rename: CanonicalText.nfc)
            try await Self.undo(old, kind)

            let store = try await fresh.testStore()
            #expect(try await Self.unnormalized(store) == [])
            #expect(try await store.legacySpellings().isEmpty)
            let pushes = try await store.column("SELECT push_id FROM pushes").compactMap { $0 }.map { Array($0.utf8) }
            #expect(Set(pushes) == Set([CanonicalText.nfc(Self.decomposed), "K-1", "plain-1"].map { Array($0.utf8) }))

            // The reports read what they read before, under the NFC names, and so does a recount from the raw
            // events and the ledger.
            #expect(try await Reported.read(store) == expected)
            try await store.rebuildRollups()
            #expect(try await Reported.read(store) == expected)

            // New receipts in either spelling, as the door puts them, add to the renamed push; an earlier
            // receipt's retry is still a retry.
            let cafe = CanonicalText.nfc(Self.decomposed)
            let before = try #require(expected.pushes[ExactText(cafe)]?.funnel.displayed)
            let flags = try await store.ingest([
                receipt(CanonicalText.nfc(Self.decomposed), device: "d3"), receipt(CanonicalText.nfc("Caf\u{E9}-1"), device: "d4"),
                receipt(CanonicalText.nfc(Self.decomposed), device: "d5", receipt: "r2"),
            ])
            #expect(flags == [false, false, true])
            let after = try await store.pushFigures().filter { $0.pushID.utf8.elementsEqual(cafe.utf8) }
            #expect(after.count == 1)
            #expect(after.first?.funnel.displayed == before + 3)
            #expect(try await store.pushFigures().count == expected.pushes.count)

            // Run again: nothing left to rename.
            let again = try await Reported.read(store)
            try await Self.undo(store, kind)
            let rerun = try await fresh.testStore()
            defer { rerun.closeInBackground() }
            #expect(try await Reported.read(rerun) == again)
            #expect(try await rerun.legacySpellings().isEmpty)
            #expect(try await Self.unnormalized(rerun) == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aSpellingWhoseNFCIsStoredIsKeptApartAndRecorded(_ kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let old = try await fresh.testStore()
            try await Self.writeLegacyNames(old)
            try await Self.writeCollidingNames(old)
            let expected = try await Reported.read(old, rename: Self.migrated)
            try await Self.undo(old, kind)

            let store = try await fresh.testStore()
            #expect(Self.sameSpellings(try await store.legacySpellings(), Self.kept))
            // Only the spelling kept is left outside NFC, in each table of its push.
            let left = try await Self.unnormalized(store)
            #expect(left.contains("push_id pushes.push_id \(SpellingMigration.escaped(Self.collidingNFD))"))
            #expect(left.allSatisfy { $0.hasPrefix("push_id ") && $0.hasSuffix(SpellingMigration.escaped(Self.collidingNFD)) }, "\(left)")
            // Each push keeps its own figures; the others are renamed as without the collision.
            #expect(try await Reported.read(store) == expected)
            let colliding = try #require(expected.pushes[ExactText(Self.collidingNFD)])
            #expect(colliding.funnel.sent == 3 && colliding.funnel.displayed == 2)
            let composed = try #require(expected.pushes[ExactText(Self.collidingNFC)])
            #expect(composed.funnel.sent == 7 && composed.funnel.displayed == 1)

            // Pruning and rebuilding count the two spellings apart too.
            #expect(try await store.prune(receivedBefore: StoreConfiguration.systemClock() + 86_400_000, batchSize: 100) > 3)
            #expect(try await Reported.read(store) == expected)
            try await store.rebuildRollups()
            #expect(try await Reported.read(store) == expected)
            let pruned = try await Self.unnormalized(store)
            #expect(pruned.contains("push_id ledger_push.push_id \(SpellingMigration.escaped(Self.collidingNFD))"), "\(pruned)")

            // Run again: the same spelling kept, recorded once.
            try await Self.undo(store, kind)
            let rerun = try await fresh.testStore()
            defer { rerun.closeInBackground() }
            #expect(try await Reported.read(rerun) == expected)
            #expect(Self.sameSpellings(try await rerun.legacySpellings(), Self.kept))
            #expect(try await Self.unnormalized(rerun) == pruned)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDatabaseWrittenInNFCIsLeftAsItIs(_ kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let store = try await fresh.testStore()
            _ = try await store.register(PushRegistration(pushID: "Caf\u{E9}-1", campaign: "Caf\u{E9}", counts: SendCounts(sent: 2)))
            _ = try await store.ingest([Self.named(CanonicalText.nfc(Self.decomposed), device: "d1").nfcNames])
            #expect(try await store.legacySpellings().isEmpty)
            let before = try await Reported.read(store)
            let rows = try await store.textRows("SELECT * FROM events")
            try await Self.undo(store, kind)
            let again = try await fresh.testStore()
            defer { again.closeInBackground() }
            #expect(try await Reported.read(again) == before)
            #expect(try await again.textRows("SELECT * FROM events") == rows)
            #expect(try await again.legacySpellings().isEmpty)
            #expect(try await Self.unnormalized(again) == [])
        }
    }
}

extension IncomingEvent {
    /// The event with every name in NFC, as the door hands it over.
    fileprivate var nfcNames: IncomingEvent {
        var event = self
        event.pushID = CanonicalText.nfc(pushID)
        event.platform = platform.map(CanonicalText.nfc)
        event.appVersion = appVersion.map(CanonicalText.nfc)
        event.osVersion = osVersion.map(CanonicalText.nfc)
        return event
    }
}
