import GRDB
import Testing

@testable import PushTallySQLite

/// The writer's C-API statements bind what GRDB would have bound and fail as GRDB would have failed.
@Suite struct BoundStatementTests {
    private func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT NOT NULL, optional TEXT, number INTEGER)")
        }
        return queue
    }

    @Test func bindsTextEmptyTextNullsAndIntegers() throws {
        let rows = try database().write { db in
            let insert = try BoundStatement(db, sql: "INSERT INTO t (id, text, optional, number) VALUES (?, ?, ?, ?)")
            for (id, text, optional, number) in [(1, "", nil, 7 as Int64?), (2, "héllo", "o", nil)] as [(Int, String, String?, Int64?)] {
                insert.bind(1, id)
                insert.bind(2, text)
                insert.bind(3, optional)
                insert.bind(4, number)
                try insert.execute()
            }
            return try Row.fetchAll(db, sql: "SELECT text, optional, number FROM t ORDER BY id")
        }
        // An empty string stays '' (NOT NULL holds), not the NULL a nil pointer would bind.
        #expect(rows[0]["text"] as String? == "")
        #expect(rows[0]["optional"] as String? == nil)
        #expect(rows[0]["number"] as Int64? == 7)
        #expect(rows[1]["text"] as String? == "héllo")
        #expect(rows[1]["optional"] as String? == "o")
        #expect(rows[1]["number"] as Int64? == nil)
    }

    @Test func aFailedStepThrowsGRDBsErrorAndTheStatementIsReusable() throws {
        try database().write { db in
            let insert = try BoundStatement(db, sql: "INSERT INTO t (id, text) VALUES (?, ?)")
            insert.bind(1, 1)
            insert.bind(2, "a")
            try insert.execute()
            insert.bind(1, 1)
            insert.bind(2, "b")
            // The result code is what SQLiteUnavailable.surface reads to tell a full disk from a bug.
            #expect { try insert.execute() } throws: { error in
                (error as? DatabaseError)?.resultCode == .SQLITE_CONSTRAINT
            }
            insert.bind(1, 2)
            insert.bind(2, "c")
            try insert.execute()
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
        }
    }

    @Test func fetchesAnIntegerNullOrNoRow() throws {
        try database().write { db in
            try db.execute(sql: "INSERT INTO t (id, text, number) VALUES (1, 'a', 42), (2, 'b', NULL)")
            let lookup = try BoundStatement(db, sql: "SELECT number FROM t WHERE text = ?")
            for (text, expected) in [("a", 42 as Int64?), ("b", nil), ("missing", nil), ("a", 42)] {
                lookup.bind(1, text)
                #expect(try lookup.fetchInt64() == expected)
            }
        }
    }

    @Test func fetchesRowsAsGRDBWouldDecodeThem() throws {
        try database().write { db in
            try db.execute(sql: "INSERT INTO t (id, text, optional, number) VALUES (1, '', NULL, -7), (2, '通知 é', '', NULL)")
            let read = try BoundStatement(db, sql: "SELECT id, text, optional, number FROM t WHERE id >= ? ORDER BY id")
            struct Read: Equatable {
                var id: Int64, text: String, optional: String?, number: Int64?
            }
            let decode = { (row: BoundStatement.Columns) in
                Read(id: row.int64(0), text: row.text(1), optional: row.optionalText(2), number: row.optionalInt64(3))
            }
            read.bind(1, 1)
            let rows = try read.fetchAll(decode)
            let expected = try Row.fetchAll(db, sql: "SELECT id, text, optional, number FROM t ORDER BY id").map {
                Read(id: $0[0], text: $0[1], optional: $0[2], number: $0[3])
            }
            #expect(rows == expected)
            // An empty string stays '' and a NULL stays nil; multi-byte text comes back whole.
            #expect(rows == [Read(id: 1, text: "", optional: nil, number: -7), Read(id: 2, text: "通知 é", optional: "", number: nil)])
            // Reset after reading: bound again, it reads afresh.
            read.bind(1, 2)
            #expect(try read.fetchAll(decode).map(\.id) == [2])
            read.bind(1, 3)
            #expect(try read.fetchAll(decode).isEmpty)
        }
    }

    @Test func aFailedReadThrowsGRDBsError() throws {
        try database().write { db in
            try db.execute(sql: "INSERT INTO t (id, text) VALUES (1, 'a')")
            // abs() of the smallest integer overflows at step time, after the statement was prepared and bound.
            let read = try BoundStatement(db, sql: "SELECT abs(?) FROM t")
            read.bind(1, Int64.min)
            #expect { try read.fetchAll { $0.int64(0) } } throws: { error in (error as? DatabaseError) != nil }
            read.bind(1, -3)
            #expect(try read.fetchAll { $0.int64(0) } == [3])
        }
    }
}
