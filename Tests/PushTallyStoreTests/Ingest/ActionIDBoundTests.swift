import Foundation
import PushTallyStores
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// Custom action ids are report columns, so each app admits a bounded number of them; the rest count as
/// `other`, and every event is still counted.
@Suite struct ActionIDBoundTests {
    /// `count` distinct custom ids on `pushID`, one event each, in batches of 25.
    static func flood(_ store: any TestStore, pushID: String, ids: Range<Int>, prefix: String = "id") async throws {
        let events = ids.map { IncomingEvent(pushID: pushID, kind: .action, action: "\(prefix)-\($0)") }
        for start in stride(from: 0, to: events.count, by: 25) {
            _ = try await store.ingest(Array(events[start..<min(start + 25, events.count)]))
        }
    }

    static func actions(_ store: any TestStore, pushID: String) async throws -> [String: Int64] {
        let figures = try #require(try await store.pushFigures().first { $0.pushID == pushID })
        return figures.funnel.actions.mapValues(\.total)
    }

    @Test(arguments: StoreKind.allCases) func eachAppKeepsItsFirstIDsAndCountsTheRestAsOther(_ kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.register(PushRegistration(pushID: "a1", campaign: "spring", app: "com.example.a"))
            try await store.register(PushRegistration(pushID: "b1", campaign: "spring", app: "com.example.b"))
            try await Self.flood(store, pushID: "a1", ids: 0..<100)
            _ = try await store.ingest([action("a1", "open"), action("a1", "dismiss"), action("a1", "id-3"), action("a1", "id-99")])

            let a = try await Self.actions(store, pushID: "a1")
            // 64 own columns, `other`, and the built-in ones, which take no slot.
            #expect(a.keys.filter { $0.hasPrefix("id-") }.count == 64)
            #expect(Set(a.keys.filter { $0.hasPrefix("id-") }) == Set((0..<64).map { "id-\($0)" }))
            #expect(a["id-3"] == 2)
            #expect(a[ActionIDs.overflow] == 37)  // ids 64..<100, and id-99 again
            #expect(a["open"] == 1 && a["dismiss"] == 1)
            #expect(a.values.reduce(0, +) == 104)
            // The raw events keep every id as sent.
            #expect(try await store.integers("SELECT COUNT(DISTINCT action) FROM events WHERE push_id = 'a1'") == [102])
            #expect(try await store.integers("SELECT COUNT(*) FROM action_ids WHERE app = 'com.example.a'") == [64])

            // Another app has its own 64, whatever the first one used.
            try await Self.flood(store, pushID: "b1", ids: 0..<70, prefix: "b")
            let b = try await Self.actions(store, pushID: "b1")
            #expect(b.keys.filter { $0.hasPrefix("b-") }.count == 64)
            #expect(b[ActionIDs.overflow] == 6)

            // A rebuild from the raw events folds exactly as ingest did.
            try await store.rebuildRollups()
            #expect(try await Self.actions(store, pushID: "a1") == a)
            #expect(try await Self.actions(store, pushID: "b1") == b)
        }
    }

    @Test(arguments: StoreKind.allCases) func unregisteredPushesShareOneBound(_ kind: StoreKind) async throws {
        try await withStore(kind, maxActionIDs: 4) { store in
            try await Self.flood(store, pushID: "orphan-1", ids: 0..<3)
            try await Self.flood(store, pushID: "orphan-2", ids: 3..<6)
            let first = try await Self.actions(store, pushID: "orphan-1")
            let second = try await Self.actions(store, pushID: "orphan-2")
            #expect(first == ["id-0": 1, "id-1": 1, "id-2": 1])
            #expect(second == ["id-3": 1, ActionIDs.overflow: 2])
        }
    }

    @Test(arguments: StoreKind.allCases) func aHigherBoundAdmitsMoreAndKeepsWhatWasAdmitted(_ kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            do {
                let store = try await fresh.testStore()
                defer { store.closeInBackground() }
                try await store.register(PushRegistration(pushID: "a1", campaign: "c", app: "com.example.a"))
                try await Self.flood(store, pushID: "a1", ids: 0..<70)
                #expect(try await Self.actions(store, pushID: "a1")[ActionIDs.overflow] == 6)
            }
            // `--max-action-ids 100`: the ids admitted before stay, new ones are admitted up to the new bound.
            let store = try await fresh.testStore(maxActionIDs: 100)
            defer { store.closeInBackground() }
            try await Self.flood(store, pushID: "a1", ids: 0..<120)
            let actions = try await Self.actions(store, pushID: "a1")
            #expect(Set((0..<64).map { "id-\($0)" }).isSubset(of: actions.keys))
            #expect(actions.keys.filter { $0.hasPrefix("id-") }.count == 100)
            // 64..<70 arrived twice: once past the old bound, once admitted under the new one.
            #expect(actions["id-64"] == 1)
            #expect(actions[ActionIDs.overflow] == 26)  // 6 before the raise, 100..<120 after
            #expect(actions.values.reduce(0, +) == 190)
        }
    }

    @Test(arguments: StoreKind.allCases) func collectorsRacingForTheLastSlotsAdmitNoMoreThanTheBound(_ kind: StoreKind) async throws {
        try await FreshStore.with(kind) { fresh in
            let first = try await fresh.testStore()
            defer { first.closeInBackground() }
            // PostgreSQL: a second collector of the same database; SQLite: the same file's one writer.
            let second = kind == .postgres ? try await fresh.testStore() : first
            defer { if kind == .postgres { second.closeInBackground() } }
            try await Self.flood(first, pushID: "p", ids: 0..<63)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, store) in [first, second, first, second].enumerated() {
                    group.addTask { try await Self.flood(store, pushID: "p", ids: (63 + index * 10)..<(73 + index * 10)) }
                }
                try await group.waitForAll()
            }
            #expect(try await first.integers("SELECT COUNT(*) FROM action_ids") == [64])
            let actions = try await Self.actions(first, pushID: "p")
            #expect(actions.keys.filter { $0.hasPrefix("id-") }.count == 64)
            #expect(actions.values.reduce(0, +) == 103)
        }
    }
}
