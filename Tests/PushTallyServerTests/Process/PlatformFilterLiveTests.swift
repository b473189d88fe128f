import Foundation
import PushTallyTestSupport
import Testing

/// The `platform` filter on the per-push reports and the time series over live HTTP (query strings as
/// Python's `urllib.parse.urlencode` writes them), the `400` of the reports not kept by platform, and
/// `--platform` on the real binary against the store file and against the server, which must agree.
@Suite(.serialized) struct PlatformFilterLiveTests {
    /// `pairs` as `urllib.parse.urlencode` encodes them (`+` for a space, UTF-8 escapes).
    static func urlencode(_ pairs: [(String, String)]) async throws -> String {
        let script = "import sys, urllib.parse; print(urllib.parse.urlencode(list(zip(sys.argv[1::2], sys.argv[2::2]))), end='')"
        let result = try await runProcess("/usr/bin/python3", ["-c", script] + pairs.flatMap { [$0.0, $0.1] })
        #expect(result.status == 0)
        return result.output
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test(arguments: StoreKind.allCases)
    func perPushReportsAndTheTimeSeriesByPlatform(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "platform-filter")
        let server = store.server
        try await PlatformCLITests.seed(server, campaigns: ["w": "web sale", "i": "ios-sale"], custom: "kai os")
        let read = ["Authorization": "Bearer \(server.adminToken)"]
        func get(_ path: String, _ pairs: [(String, String)]) async throws -> (status: Int, body: Data) {
            let query = try await Self.urlencode(pairs)
            let url = try #require(URL(string: server.baseURL.absoluteString + path + "?" + query))
            let answer = try await httpRequest(url, headers: read)
            return (answer.status, answer.body)
        }

        // Pushes: each push's events from the platform; sends stay with unknown.
        for (platform, expected) in [("web", ["w": 2]), ("android", ["w": 1]), ("kai os", ["i": 1]), ("unknown", ["w": 1, "i": 0])] {
            let answer = try await get("/v1/reports/pushes", [("platform", platform)])
            #expect(answer.status == 200, "\(platform)")
            let rows = try #require(try Self.json(answer.body)["pushes"] as? [[String: Any]])
            let displayed = Dictionary(uniqueKeysWithValues: rows.map { ($0["push_id"] as! String, $0["displayed"] as! Int) })
            #expect(displayed == expected, "\(platform)")
            let sent = rows.map { $0["sent"] as! Int }
            #expect(sent.allSatisfy { $0 == (platform == "unknown" ? 4 : 0) }, "\(platform)")
            if platform != "unknown" { #expect(rows.allSatisfy { $0["display_rate"] is NSNull }) }
        }
        let one = try await get("/v1/reports/pushes/w", [("platform", "web"), ("format", "csv")])
        let lines = String(decoding: one.body, as: UTF8.self).components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(one.status == 200 && lines.count == 2 && lines[1].hasPrefix("w,web sale,"), "\(lines)")
        let drill = try await get("/v1/reports/campaigns/web%20sale", [("platform", "android")])
        let drillRows = try #require(try Self.json(drill.body)["pushes"] as? [[String: Any]])
        #expect(drill.status == 200 && drillRows.map { $0["displayed"] as! Int } == [1])
        // The time series: the platforms' buckets add up to every event's.
        var total = 0
        for platform in ["web", "android", "ios", "kai os", "unknown"] {
            let series = try await get("/v1/reports/timeseries", [("platform", platform), ("bucket", "day")])
            #expect(series.status == 200, "\(platform)")
            let buckets = try #require(try Self.json(series.body)["buckets"] as? [[String: Any]])
            total += buckets.reduce(0) { $0 + ($1["displayed"] as! Int) }
        }
        #expect(total == 6)

        // Reports not kept by platform refuse the filter, naming it.
        for path in ["/v1/reports/versions", "/v1/reports/attribution", "/v1/reports/audience", "/v1/reports/campaigns/ios-sale/variants"] {
            let refused = try await get(path, [("platform", "web")])
            #expect(refused.status == 400, "\(path)")
            let error = try Self.json(refused.body)
            #expect(error["error"] as? String == "not_kept_by_platform" && error["field"] as? String == "platform", "\(path): \(error)")
            #expect((error["message"] as? String)?.contains("not kept by platform") == true)
        }

        // The CLI's --platform, from the file and from the server alike.
        try await PlatformCLITests.expectFileAndServerAgree(store, [
            ["report", "pushes", "--platform", "web", "--format", "csv"],
            ["report", "push", "w", "--platform", "android", "--format", "csv"],
            ["report", "campaign", "web sale", "--platform", "unknown", "--format", "csv"],
            ["report", "timeseries", "--platform", "kai os", "--bucket", "hour", "--format", "csv"],
        ])
        let web = try await runPushtally(["report", "pushes", "--platform", "web", "--format", "csv"] + store.arguments).stdout
        let webLines = web.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(webLines.count == 2 && webLines[1].hasPrefix("w,web sale,"), "\(web)")
        let header = webLines[0].split(separator: ",").map(String.init)
        let row = webLines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(row[header.firstIndex(of: "displayed")!] == "2" && row[header.firstIndex(of: "sent")!] == "0", "\(web)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
