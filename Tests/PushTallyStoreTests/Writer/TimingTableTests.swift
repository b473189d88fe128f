import GRDB
import PushTallyCore
import Testing

@testable import PushTallySQLite

/// A push's histogram is added as one run of columns per commit: the zeros inside the run add nothing,
/// columns outside it are untouched, and runs of later commits add to the same row.
@Suite struct TimingTableTests {
    @Test func runsOfColumnsAddUp() throws {
        let queue = try DatabaseQueue()
        let histograms = try queue.write { db -> [String: LatencyHistogram] in
            try db.execute(sql: SQLDialect.sqlite.create(.timing, in: .rollups, sharded: false))
            var first = LatencyHistogram()
            first.add(bucket: 3, count: 2)
            first.add(bucket: 7, count: 1)
            var second = LatencyHistogram()
            second.add(bucket: 5, count: 4)
            second.add(bucket: 39, count: 1)
            let statements = RollupStatements()
            try TimingTable.add(first, pushID: "p", to: .rollups, statements: statements, in: db)
            try TimingTable.add(first, pushID: "q", to: .rollups, statements: statements, in: db)
            try TimingTable.add(LatencyHistogram(), pushID: "empty", to: .rollups, statements: statements, in: db)
            // Later: a stored row added to, with the statement of a run already prepared and one not.
            try TimingTable.add(second, pushID: "p", to: .rollups, statements: statements, in: db)
            try TimingTable.add(first, pushID: "p", to: .rollups, statements: statements, in: db)
            var found: [String: LatencyHistogram] = [:]
            try RawColumns.forEachRow(PushRowRead.timing.statement(.sqlite, .all), in: db) { row in
                var histogram = LatencyHistogram()
                row.withHistogram(at: 1) { count in
                    for bucket in 0..<TimingColumns.count { histogram.add(bucket: bucket, count: count(bucket)) }
                }
                found[row.text(0)] = histogram
            }
            return found
        }
        var expected = [Int64](repeating: 0, count: TimingColumns.count)
        expected[3] = 4
        expected[5] = 4
        expected[7] = 2
        expected[39] = 1
        #expect(histograms["p"]?.counts == expected)
        #expect(histograms["q"]?.counts.enumerated().filter { $0.element != 0 }.map(\.offset) == [3, 7])
        #expect(histograms["empty"] == nil)
    }
}
