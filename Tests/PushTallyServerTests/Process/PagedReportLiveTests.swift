import Foundation
import PushTallyTestSupport
import Testing

/// A campaigns report of many pages is written as it is read (``PagedReportResponse``), and is byte for byte the
/// report read whole (`pushtally report campaigns`, which holds every row): JSON, CSV whose columns include a
/// custom action counted only in the last page, and both gzip-compressed as they go, each read by `urllib`.
@Suite struct PagedReportLiveTests {
    static let reader = #"""
        import gzip, sys, urllib.request
        base, token, directory = sys.argv[1], sys.argv[2], sys.argv[3]
        for fmt in ["json", "csv"]:
            for compressed in [False, True]:
                headers = {"Authorization": "Bearer " + token}
                if compressed:
                    headers["Accept-Encoding"] = "gzip"
                request = urllib.request.Request(f"{base}/v1/reports/campaigns?format={fmt}", headers=headers)
                with urllib.request.urlopen(request) as response:
                    body = response.read()
                    framing = response.headers["Transfer-Encoding"] or "length"
                    if compressed:
                        assert response.headers["Content-Encoding"] == "gzip", response.headers
                        body = gzip.decompress(body)
                name = f"{fmt}{'.gz' if compressed else ''}"
                open(f"{directory}/{name}", "wb").write(body)
                print(name, framing)
        """#

    @Test func aReportOfManyPagesIsTheReportReadWhole() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let auth = ["Authorization": "Bearer \(server.adminToken)"]
        // 2,500 pushes in 2,200 campaigns (some with two), more than two pages of campaigns.
        let records = (0..<2_500).map { #"{"push_id":"p\#($0)","campaign":"campaign \#(String(format: "%05d", $0 % 2_200)) 名前","targeted":10,"sent":9}"# }
        let registered = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/pushes"), method: "POST",
            headers: auth.merging(["Content-Type": "application/x-ndjson"]) { $1 }, body: Data(records.joined(separator: "\n").utf8))
        try #require(registered.status == 200, "\(String(decoding: registered.body, as: UTF8.self).prefix(300))")
        let receipts = (0..<2_500).filter { $0 % 3 == 0 }.map { #"{"push_id":"p\#($0)","receipt_id":"r\#($0)"}"# }
            + (0..<5).map { #"{"push_id":"nobody-registered-\#($0)","receipt_id":"o\#($0)"}"# }
        let stored = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/x-ndjson"],
            body: Data(receipts.joined(separator: "\n").utf8))
        try #require(stored.status == 200, "\(String(decoding: stored.body, as: UTF8.self).prefix(300))")
        // A custom action only in the last campaign: the CSV's header must have its column before the first row.
        let action = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/actions"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"{"push_id":"p2199","action":"share"}"#.utf8))
        try #require(action.status == 204)

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("paged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try await runProcess(
            "/usr/bin/env", ["python3", "-c", Self.reader, server.baseURL.absoluteString, server.adminToken, directory.path],
            includingErrors: true)
        try #require(status == 0, "\(output)")
        #expect(output.split(separator: "\n") == ["json chunked", "json.gz chunked", "csv chunked", "csv.gz chunked"], "\(output)")

        for format in ["json", "csv"] {
            let whole = try await runPushtally(["report", "campaigns", "--format", format, "--database", server.databasePath])
            try #require(whole.status == 0, "\(whole.stderr)")
            // The CLI ends its output with a line break where the JSON document has none.
            let expected = format == "json" ? String(whole.stdout.dropLast()) : whole.stdout
            for name in [format, format + ".gz"] {
                let paged = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                #expect(paged.utf8.count == expected.utf8.count, "\(name): \(paged.utf8.count) bytes against \(expected.utf8.count)")
                #expect(paged == expected, "\(name) is the report read whole")
            }
            if format == "csv" {
                #expect(expected.hasPrefix("campaign,") && expected.split(separator: "\r\n").first?.hasSuffix(",action:share") == true)
                #expect(expected.split(separator: "\r\n").count == 2_202, "2,200 campaigns, the orphans' row and the header")
            }
        }
        #expect(try await server.stop() == 0)
    }
}
