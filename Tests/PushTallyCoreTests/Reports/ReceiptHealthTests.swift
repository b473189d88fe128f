import Testing

@testable import PushTallyCore

/// Receipt health flags the release whose extension stopped posting, never the row of events that named no
/// version.
struct ReceiptHealthTests {
    func version(_ name: String, receipts: Int64, opens: Int64) -> [VersionCount] {
        [
            VersionCount(version: name, kind: .display, action: "", count: EventCount(total: receipts + 2, duplicates: 2)),
            VersionCount(version: name, kind: .action, action: StandardAction.open, count: EventCount(total: opens)),
            VersionCount(version: name, kind: .action, action: StandardAction.dismiss, count: EventCount(total: 700)),
        ]
    }

    func row(_ table: ReportTable, _ name: String) throws -> [String: ReportValue] {
        let row = try #require(table.rows.first { $0.contains { $0.0 == "version" && $0.1 == .text(name) } })
        return Dictionary(uniqueKeysWithValues: row.map { ($0.0, $0.1) })
    }

    @Test func versionlessTapsAndOneBrokenReleaseFlagOnlyTheRelease() throws {
        // Taps from clients that send no version outnumber all others; 2.0's extension posts almost nothing.
        let counts = version("1.0", receipts: 90, opens: 10) + version("2.0", receipts: 2, opens: 10)
            + version("", receipts: 0, opens: 500)
        let table = ReceiptHealthReport.table(counts, dimension: .appVersion)
        #expect(table.rows.map { $0[0].1 } == [.text("1.0"), .text("2.0"), .text("unknown")])
        let broken = try row(table, "2.0")
        #expect(broken["flagged"] == .flag(true))
        #expect(broken["receipt_share"] == .rate(2.0 / 92.0) && broken["open_share"] == .rate(0.5))
        let healthy = try row(table, "1.0")
        #expect(healthy["flagged"] == .flag(false) && healthy["open_share"] == .rate(0.5))
        let unknown = try row(table, "unknown")
        #expect(unknown["flagged"] == .flag(false))
        #expect(unknown["opens"] == .integer(500) && unknown["receipt_share"] == .rate(nil) && unknown["open_share"] == .rate(nil))
    }

    @Test func aReleaseAtHalfItsShareOfOpensIsNotFlagged() throws {
        // 1.0: 25 % of receipts for 50 % of opens, exactly half: not under it.
        let table = ReceiptHealthReport.table(
            version("1.0", receipts: 25, opens: 10) + version("2.0", receipts: 75, opens: 10), dimension: .appVersion)
        #expect(try row(table, "1.0")["flagged"] == .flag(false))
        #expect(try row(table, "2.0")["flagged"] == .flag(false))
    }

    @Test func onlyVersionlessEventsAreNeverFlagged() throws {
        let table = ReceiptHealthReport.table(version("", receipts: 0, opens: 40), dimension: .osVersion)
        #expect(try row(table, "unknown")["flagged"] == .flag(false))
    }
}
