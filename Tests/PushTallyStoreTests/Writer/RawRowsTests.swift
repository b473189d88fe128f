import PushTallyCore
import PushTallySQLite
import Testing

/// SQLite stores a commit's raw rows many to a statement (`RawRows`): every row still lands in the batch's order,
/// with its own kind's columns, its own retry flag and the next rowid, whatever statement sizes its runs split into.
@Suite struct RawRowsTests {
    @Test func aCommitStoresEveryRowInItsBatchsOrderWithItsOwnColumns() async throws {
        try await withSQLiteStore { store in
            // Runs of both column lists across every statement size: 37 receipts (32 + 4 + 1 rows a statement),
            // 3 sessions (2 + 1), 71 receipts with a retry among them (64 + 4 + 2 + 1), then one action.
            var sent = (0..<37).map { receipt("p1", device: "d\($0)", receipt: "a\($0)") }
            sent += (0..<3).map { IncomingEvent.session(deviceID: "d\($0)", sessionID: "s\($0)", app: "com.example.app") }
            sent += (0..<70).map { receipt("p2", receipt: "b\($0)") }
            sent.append(receipt("p2", receipt: "b5"))
            sent.append(action("p1", "open", receipt: "c0"))
            let flags = try await store.ingest(sent)
            #expect(flags == Array(repeating: false, count: 110) + [true, false])

            let rows = try await store.textRows(
                "SELECT rowid, receipt_id, push_id, kind, duplicate, app, action FROM events ORDER BY rowid")
            try #require(rows.count == sent.count)
            #expect(rows.map { $0[1] } == sent.map(\.receiptID))
            #expect(rows.map { $0[2] } == sent.map { $0.kind.namesPush ? $0.pushID : "" })
            #expect(rows.map { $0[3] } == sent.map { String($0.kind.rawValue) })
            #expect(rows.map { $0[4] } == flags.map { $0 ? "1" : "0" })
            // A session names its app; a receipt's row leaves the columns it never fills empty.
            #expect(rows.map { $0[5] } == sent.map { $0.kind == .session ? "com.example.app" : nil })
            #expect(rows.last?[6] == "open")
            let rowids = rows.compactMap { $0[0].flatMap { Int64($0) } }
            let first = try #require(rowids.first)
            #expect(rowids == Array(first..<first + Int64(sent.count)))
            // The rollups counted the same rows: p2's 71 displays, one of them a retry.
            let p2 = try #require(try await store.pushFigures().first { $0.pushID == "p2" })
            #expect(p2.funnel.displayed == 71 && p2.funnel.duplicates == 1 && p2.funnel.displayedUnique == 70)
        }
    }
}
