import PushTallyCore
import PushTallyTestSupport
import Testing

/// A database written before names were put in NFC at the door may hold one name in two spellings. Both
/// stores keep them as two rows, and the reports built from them keep them apart exactly as stored: each
/// push and campaign with its own figures, none credited to the other.
@Suite struct LegacySpellingsStoreTests {
    static let composed = "Caf\u{E9}-1"
    static let decomposed = "Cafe\u{301}-1"

    @Test(arguments: StoreKind.allCases)
    func twoStoredSpellingsStayTwoPushesAndTwoCampaigns(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // The store's own calls take names as given: what an older door let through.
            try await store.register(PushRegistration(pushID: Self.composed, campaign: Self.composed, counts: SendCounts(sent: 10)))
            try await store.register(PushRegistration(pushID: Self.decomposed, campaign: Self.decomposed, counts: SendCounts(sent: 20)))
            _ = try await store.ingest([receipt(Self.composed)])
            _ = try await store.ingest([receipt(Self.decomposed)])
            _ = try await store.ingest([receipt(Self.decomposed)])
            let figures = try await store.pushFigures()
            #expect(figures.count == 2)
            for (name, sent, displayed) in [(Self.composed, Int64(10), Int64(1)), (Self.decomposed, 20, 2)] {
                let mine = figures.filter { $0.pushID.utf8.elementsEqual(name.utf8) }
                #expect(mine.count == 1)
                #expect(mine.first?.funnel.sent == sent && mine.first?.funnel.displayed == displayed, "\(Array(name.utf8))")
            }
            let rows = try await store.campaignRows(ReportFilter(), by: nil)
            #expect(rows.count == 2)
            for (name, sent, displayed) in [(Self.composed, Int64(10), Int64(1)), (Self.decomposed, 20, 2)] {
                let mine = rows.filter { $0.campaign?.utf8.elementsEqual(name.utf8) == true }
                #expect(mine.count == 1)
                #expect(mine.first?.funnel.sent == sent && mine.first?.funnel.displayed == displayed)
                #expect(mine.first?.pushIDs.count == 1)
            }
        }
    }

    /// Custom action ids are admitted per app as the `action_ids` table keys apps, byte for byte: an app stored in
    /// two spellings has two bounds, and each push's ids count under its own spelling's, at ingest and in a
    /// rebuild alike.
    @Test(arguments: StoreKind.allCases)
    func twoStoredSpellingsOfAnAppAdmitTheirOwnActionIDs(_ kind: StoreKind) async throws {
        try await withStore(kind, maxActionIDs: 1) { store in
            try await store.register(PushRegistration(pushID: "a", campaign: "c", app: Self.composed))
            try await store.register(PushRegistration(pushID: "b", campaign: "c", app: Self.decomposed))
            _ = try await store.ingest([action("a", "buy")])
            _ = try await store.ingest([action("b", "share"), action("b", "save")])
            func actions() async throws -> [String: [String: Int64]] {
                Dictionary(uniqueKeysWithValues: try await store.pushFigures().map { ($0.pushID, $0.funnel.actions.mapValues(\.total)) })
            }
            let counted = try await actions()
            #expect(counted["a"] == ["buy": 1])
            #expect(counted["b"] == ["share": 1, ActionIDs.overflow: 1], "the decomposed app has a slot of its own")
            #expect(try await store.integers("SELECT COUNT(*) FROM action_ids") == [2])
            try await store.rebuildRollups()
            #expect(try await actions() == counted)
        }
    }
}
