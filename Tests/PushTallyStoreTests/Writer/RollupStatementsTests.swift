import GRDB
import PushTallyCore
import Testing

@testable import PushTallySQLite

/// The writer's kept statements add to stored rows and create missing ones, and follow the connection they
/// are used on: one kept for one database never writes into another.
@Suite struct RollupStatementsTests {
    @Test func addsToStoredRowsAndCreatesMissingOnes() throws {
        let queue = try DatabaseQueue()
        let statements = RollupStatements()
        let rows = try queue.write { db -> [Row] in
            try db.execute(sql: SQLDialect.sqlite.create(.push, in: .rollups, sharded: false))
            for (pushID, time) in [("a", 50), ("b", 10), ("a", 20), ("a", 90)] {
                var delta = RollupAccumulator.Delta()
                delta.total = 1
                delta.duplicates = pushID == "b" ? 1 : 0
                (delta.firstTime, delta.lastTime) = (Int64(time), Int64(time))
                try statements.statement(.push, into: .rollups, in: db).add { statement in
                    statement.bind(1, pushID)
                    statement.bind(2, EventKind.display.rawValue)
                    statement.bind(3, "")
                    statement.bind(delta, RollupTable.push.deltaFields, from: 4)
                }
            }
            return try Row.fetchAll(db, sql: "SELECT push_id, total, duplicates, first_time, last_time, late FROM rollup_push ORDER BY push_id")
        }
        #expect(rows.map { [$0[0] as String] } == [["a"], ["b"]])
        #expect(rows.map { [$0[1], $0[2], $0[3], $0[4], $0[5]] as [Int64] } == [[3, 0, 20, 90, 0], [1, 1, 10, 10, 0]])
    }

    @Test func aStatementKeptForOneConnectionIsNotUsedOnAnother() throws {
        let statements = RollupStatements()
        let queues = try [DatabaseQueue(), DatabaseQueue()]
        for (index, queue) in queues.enumerated() {
            try queue.write { db in
                try db.execute(sql: SQLDialect.sqlite.create(.time, in: .rollups, sharded: false))
                try statements.statement(.time, into: .rollups, in: db).add { statement in
                    statement.bind(1, Int64(index))
                    statement.bind(2, EventKind.display.rawValue)
                    statement.bind(3, "")
                    statement.bind(4, Int64(1))
                    statement.bind(5, Int64(0))
                }
            }
        }
        for (index, queue) in queues.enumerated() {
            let buckets = try queue.read { db in try Int64.fetchAll(db, sql: "SELECT bucket FROM rollup_time") }
            #expect(buckets == [Int64(index)])
        }
    }
}
