import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// `GET /v1/reports/versions` on both stores: taps without an app version are a row of their own, never
/// flagged, and the release whose extension stopped posting is the one flagged.
@Suite struct ReceiptHealthRouteTests {
    @Test(arguments: StoreKind.allCases) func versionlessTapsAndOneBrokenReleaseFlagOnlyTheRelease(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"spring","sent":100}"#, headers: fixture.bearer(.backend))
            // 1.0 displays on nine devices, 2.0 on one; each has two taps, and forty taps name no version.
            let receipts = (0..<9).map { #"{"push_id":"p1","device_id":"a\#($0)","app_version":"1.0"}"# }
                + [#"{"push_id":"p1","device_id":"b0","app_version":"2.0"}"#]
            let taps = (0..<2).map { #"{"push_id":"p1","device_id":"a\#($0)","action":"open","app_version":"1.0"}"# }
                + (0..<2).map { #"{"push_id":"p1","device_id":"b\#($0)","action":"open","app_version":"2.0"}"# }
                + (0..<40).map { #"{"push_id":"p1","device_id":"c\#($0)","action":"open"}"# }
            #expect(try await client.json(.post, "/v1/receipts", "[" + receipts.joined(separator: ",") + "]").status.code < 300)
            #expect(try await client.json(.post, "/v1/actions", "[" + taps.joined(separator: ",") + "]").status.code < 300)
            let answer = try await client.send(.get, "/v1/reports/versions", headers: fixture.bearer(.read))
            let rows = try #require(answer.object["versions"] as? [[String: Any]], "\(answer.text)")
            let byVersion = Dictionary(uniqueKeysWithValues: rows.map { ($0["version"] as? String ?? "", $0) })
            #expect(rows.map { $0["version"] as? String } == ["1.0", "2.0", "unknown"])
            #expect(byVersion["2.0"]?["flagged"] as? Bool == true)
            #expect(byVersion["2.0"]?["receipt_share"] as? Double == 0.1 && byVersion["2.0"]?["open_share"] as? Double == 0.5)
            #expect(byVersion["1.0"]?["flagged"] as? Bool == false)
            let unknown = try #require(byVersion["unknown"])
            #expect(unknown["flagged"] as? Bool == false && unknown["opens"] as? Int == 40)
            #expect(unknown["receipt_share"] is NSNull && unknown["open_share"] is NSNull)
            let csv = try await client.send(.get, "/v1/reports/versions?format=csv", headers: fixture.bearer(.read))
            let table = parseCSV(csv.text)
            #expect(table.first == [
                "version", "receipts", "opens", "receipt_share", "open_share", "flagged", "media_attached", "media_failed",
                "media_timed_out", "rich_rate", "extension_ms_p50", "extension_ms_p90",
            ], "\(csv.text)")
            #expect(table.last == ["unknown", "0", "40", "", "", "false", "0", "0", "0", "", "", ""], "\(csv.text)")
        }
    }
}
