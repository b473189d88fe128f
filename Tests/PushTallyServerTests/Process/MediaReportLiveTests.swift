import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

/// A campaign whose images time out for a third of its displays, on each store, through a live collector: its
/// `rich_rate` reads two thirds in the JSON and CSV reports, the CLI's table, and per app version; extension
/// time percentiles are within 10 % of the exact ones; a retry counts once and a silent receipt is in no media count.
@Suite struct MediaReportLiveTests {
    /// Extension times of the unique displays: six attached, three timed out.
    static let attachedMillis: [Int64] = [420, 610, 700, 880, 1_250, 2_300]
    static let timedOutMillis: [Int64] = [29_400, 29_700, 29_950]

    /// Registers `rich` (p1, 12 sent) and `plain` (p2), and posts p1's displays from app 5.0 (one retried with
    /// another outcome), two displays from 5.1 whose receipts say nothing of media, and a display of p2 that asked
    /// for none.
    static func seeded(_ kind: StoreKind) async throws -> StoreServer {
        let store = try await StoreServer.start(kind, name: "media-report")
        let base = store.server.baseURL
        let admin = ["Authorization": "Bearer \(store.server.adminToken)", "Content-Type": "application/json"]
        for (push, campaign) in [("p1", "rich"), ("p2", "plain")] {
            let answer = try await httpRequest(
                base.appendingPathComponent("v1/pushes/\(push)"), method: "PUT", headers: admin,
                body: Data(#"{"campaign":"\#(campaign)","sent":12}"#.utf8))
            #expect(answer.status < 300, "\(String(decoding: answer.body, as: UTF8.self))")
        }
        var receipts = attachedMillis.enumerated().map { index, millis in
            #"{"push_id":"p1","device_id":"a\#(index)","app_version":"5.0","media":"attached","extension_ms":\#(millis)}"#
        }
        receipts += timedOutMillis.enumerated().map { index, millis in
            #"{"push_id":"p1","device_id":"t\#(index)","app_version":"5.0","media":"timed_out","extension_ms":\#(millis)}"#
        }
        receipts += [
            #"{"push_id":"p1","device_id":"a0","app_version":"5.0","media":"timed_out","extension_ms":30000}"#,
            #"{"push_id":"p1","device_id":"u0","app_version":"5.1"}"#, #"{"push_id":"p1","device_id":"u1","app_version":"5.1"}"#,
            #"{"push_id":"p2","device_id":"n0","app_version":"5.1","media":"none","extension_ms":15}"#,
        ]
        let answer = try await httpRequest(
            base.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(("[" + receipts.joined(separator: ",") + "]").utf8))
        #expect(answer.status < 300, "\(String(decoding: answer.body, as: UTF8.self))")
        return store
    }

    /// The nearest-rank percentile of the unique displays' times.
    static func exact(_ q: Double) -> Int64 {
        let sorted = (attachedMillis + timedOutMillis).sorted()
        return sorted[Int((q * Double(sorted.count)).rounded(.up)) - 1]
    }

    static func withinTenPercent(_ value: Any?, of exact: Int64) -> Bool {
        guard let value = value as? Int else { return false }
        return abs(Double(Int64(value) - exact)) <= 0.1 * Double(exact)
    }

    @Test(arguments: StoreKind.allCases) func aThirdTimedOutReadsTwoThirdsEverywhere(kind: StoreKind) async throws {
        let store = try await Self.seeded(kind)
        let server = store.server
        let read = ["Authorization": "Bearer \(server.adminToken)"]
        func get(_ path: String) async throws -> String {
            let answer = try await httpRequest(URL(string: server.baseURL.absoluteString + path)!, headers: read)
            #expect(answer.status == 200, "\(path)")
            return String(decoding: answer.body, as: UTF8.self)
        }
        func rows(_ path: String, _ key: String) async throws -> [[String: Any]] {
            let text = try await get(path)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return try #require(object?[key] as? [[String: Any]], "\(text)")
        }

        let campaigns = try await rows("/v1/reports/campaigns", "campaigns")
        let rich = try #require(campaigns.first { $0["campaign"] as? String == "rich" })
        #expect(rich["media_attached"] as? Int == 6 && rich["media_failed"] as? Int == 0 && rich["media_timed_out"] as? Int == 3)
        #expect(abs((rich["rich_rate"] as? Double ?? 0) - 2.0 / 3.0) < 1e-9, "\(rich)")
        #expect(Self.withinTenPercent(rich["extension_ms_p50"], of: Self.exact(0.5)), "\(rich)")
        #expect(Self.withinTenPercent(rich["extension_ms_p90"], of: Self.exact(0.9)), "\(rich)")
        // Asked for no media: no rate; its extension time is still timed.
        let plain = try #require(campaigns.first { $0["campaign"] as? String == "plain" })
        #expect(plain["rich_rate"] is NSNull && plain["media_attached"] as? Int == 0 && plain["extension_ms_p50"] as? Int == 15)

        let push = try #require(try await rows("/v1/reports/campaigns/rich", "pushes").first)
        #expect(push["media_timed_out"] as? Int == 3 && abs((push["rich_rate"] as? Double ?? 0) - 2.0 / 3.0) < 1e-9, "\(push)")

        let csv = parseCSV(try await get("/v1/reports/campaigns?format=csv"))
        let header = try #require(csv.first)
        let added = ["media_attached", "media_failed", "media_timed_out", "rich_rate", "extension_ms_p50", "extension_ms_p90"]
        let start = try #require(header.firstIndex(of: "media_attached"), "\(header)")
        #expect(Array(header[start..<start + added.count]) == added)
        #expect(header.firstIndex(of: "superseded_pushes") == start - 1, "new columns follow the existing ones")
        let richRow = try #require(csv.first { $0.first == "rich" })
        #expect(Double(richRow[start + 3]).map { abs($0 - 2.0 / 3.0) < 1e-9 } == true, "\(richRow)")
        #expect(csv.first { $0.first == "plain" }?[start + 3] == "")

        let versions = try await rows("/v1/reports/versions", "versions")
        let byVersion = Dictionary(uniqueKeysWithValues: versions.map { ($0["version"] as? String ?? "", $0) })
        #expect(abs((byVersion["5.0"]?["rich_rate"] as? Double ?? 0) - 2.0 / 3.0) < 1e-9, "\(versions)")
        #expect(byVersion["5.0"]?["media_timed_out"] as? Int == 3)
        #expect(byVersion["5.1"]?["rich_rate"] is NSNull && byVersion["5.1"]?["extension_ms_p90"] as? Int == 15, "\(versions)")

        // The CLI: its file and the server give the same bytes, and people read the rate in a `rich rate` column.
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        for format in ["csv", "json"] {
            let local = try await runPushtally(["report", "campaigns", "--format", format] + store.arguments)
            let viaServer = try await runPushtally(["report", "campaigns", "--format", format] + remote)
            #expect(local.status == 0 && local.stdout == viaServer.stdout, "\(format): \(local.stderr)")
        }
        let drawn = TerminalOutputTests.withoutColour(
            try await TerminalOutputTests.onTerminal(["report", "campaigns"] + store.arguments, columns: 160))
        let lines = drawn.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("rich rate") == true, "\(drawn)")
        #expect(lines.first { $0.hasPrefix("rich ") }?.contains("66.7%") == true, "\(drawn)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
