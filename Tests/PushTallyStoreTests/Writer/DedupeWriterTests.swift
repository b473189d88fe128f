import GRDB
import PushTallyCore
import PushTallySQLite
import PushTallyTestSupport
import Testing

/// The dedupe keys of a commit go in in key order; the flags must still be those of arrival order.
@Suite struct DedupeWriterTests {
    /// An event is a retry when any of its keys was stored before it (an earlier commit or an earlier event
    /// of this one): the rule written out event by event, in arrival order.
    private func arrivalOrderFlags(_ batches: [[IncomingEvent]], stored: inout Set<String>) -> [[Bool]] {
        batches.map { batch in
            batch.map { event in
                let keys = DedupeKeys.of(event).map { event.pushID + "|" + $0 }
                let duplicate = keys.contains { stored.contains($0) }
                stored.formUnion(keys)
                return duplicate
            }
        }
    }

    /// The retry flags of a commit of `batches`: the dedupe writer's new keys, read by the commit plan.
    private func committedFlags(_ batches: [[IncomingEvent]], db: Database) throws -> [[Bool]] {
        let events = batches.joined().map { StoredEvent($0, receivedAt: 0) }
        let plan = CommitPlan(events, newKeys: try DedupeWriter.newKeys(events, db: db))
        var offset = 0
        return batches.map { batch in
            defer { offset += batch.count }
            return Array(plan.duplicates[offset..<offset + batch.count])
        }
    }

    @Test func keyOrderKeepsArrivalOrderFlags() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue)
        var generator = SplitMix64(state: 20)
        var stored: Set<String> = []
        // Few pushes and ids, so keys collide within batches, across batches of one commit and across commits;
        // ids are drawn so that key order often disagrees with arrival order.
        for _ in 0..<5 {
            let batches = (0..<3).map { _ in
                (0..<60).map { _ -> IncomingEvent in
                    let pick = generator.next() % 7
                    let push = "p\(generator.next() % 3)"
                    let device = pick < 5 ? "d\(99 - generator.next() % 12)" : nil
                    let receipt = pick > 2 ? "r\(generator.next() % 12)" : nil
                    return pick == 6
                        ? IncomingEvent(pushID: push, kind: .action, action: "open", deviceID: device, receiptID: receipt)
                        : IncomingEvent(pushID: push, kind: .display, deviceID: device, receiptID: receipt)
                }
            }
            let expected = arrivalOrderFlags(batches, stored: &stored)
            let flags = try queue.write { db in try committedFlags(batches, db: db) }
            #expect(flags == expected)
        }
        #expect(stored.count == (try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM dedupe") }))
    }

    @Test func theFirstOfEqualKeysInACommitIsTheOriginal() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue)
        // Key order puts the second batch's device key first ("d…i…" < "d…r…"); its event still came later.
        let batches = [
            [IncomingEvent(pushID: "p", kind: .display, receiptID: "r1")],
            [IncomingEvent(pushID: "p", kind: .display, deviceID: "z", receiptID: "r1"),
             IncomingEvent(pushID: "p", kind: .display, deviceID: "z")],
        ]
        let flags = try queue.write { db in try committedFlags(batches, db: db) }
        #expect(flags == [[false], [true, true]])
    }
}

