@testable import PushTallyCore
import Testing

/// Every rollup table's key columns read from the key its rows are counted under, by name (``RollupKeyCells``):
/// what PostgreSQL's commit statements bind, a column at a time in the declared order.
@Suite struct RollupKeyCellsTests {
    /// The cells of `key` for `table`'s key columns, in their declared order, as text; `nil` for a column the
    /// key cannot read.
    static func cells<Key: RollupKeyCells>(_ table: RollupTable, _ key: Key) -> [String?] {
        table.key.map { column in
            column.type == .text ? Key.text(column.name).map { $0(key) } : Key.integer(column.name).map { String($0(key)) }
        }
    }

    static let push = RollupAccumulator.PushKey(pushID: "p1", kind: .action, action: "reply")
    static let bucket = RollupAccumulator.BucketKey(push: push, bucket: 96)

    /// Each table's key read from a key of the type its writers hold, every cell told apart.
    static func keyCells(_ table: RollupTable) -> [String?] {
        switch table {
        case .push: return cells(table, push)
        case .bucket: return cells(table, bucket)
        case .time: return cells(table, RollupAccumulator.TimeKey(bucket: 96, kind: .action, action: "reply"))
        case .version: return cells(table, RollupAccumulator.VersionKey(push: push, dimension: 2, version: "17.4"))
        case .pending: return cells(table, RollupAccumulator.PendingKey(pushID: "p1", clock: 3, second: 4_000))
        case .outcome: return cells(table, RollupAccumulator.OutcomeKey(pushID: "p1", measure: .directConversion, currency: "EUR"))
        case .outcomeTime: return cells(table, RollupAccumulator.OutcomeTimeKey(bucket: 96, measure: .directConversion, currency: "EUR"))
        case .timing, .media: return cells(table, "p1")
        case .mediaBucket: return cells(table, RollupAccumulator.MediaBucketKey(pushID: "p1", bucket: 96))
        case .mediaVersion: return cells(table, RollupAccumulator.MediaVersionKey(pushID: "p1", dimension: 2, version: "17.4"))
        case .platformBucket: return cells(table, RollupAccumulator.PlatformBucketKey(bucket: bucket, platform: "ios"))
        }
    }

    @Test(arguments: RollupTable.allCases) func everyKeyColumnIsReadFromItsKey(_ table: RollupTable) {
        let read = Self.keyCells(table)
        #expect(!read.contains(nil), "\(table): \(zip(table.key.map(\.name), read).filter { $0.1 == nil }.map(\.0)) unread")
    }

    @Test func cellsComeInTheDeclaredOrder() {
        let action = String(EventKind.action.rawValue)
        let measure = String(OutcomeMeasure.directConversion.rawValue)
        #expect(Self.keyCells(.platformBucket) == ["p1", "96", "ios", action, "reply"])
        #expect(Self.keyCells(.version) == ["p1", "2", "17.4", action, "reply"])
        #expect(Self.keyCells(.pending) == ["p1", "3", "4000"])
        #expect(Self.keyCells(.outcomeTime) == ["96", measure, "EUR"])
    }
}
