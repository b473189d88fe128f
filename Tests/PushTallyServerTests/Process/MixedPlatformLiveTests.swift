import Foundation
import PushTallyTestSupport
import Testing

/// A campaign sent to iOS and Android at once through the real binary, on both stores: one push, a send record
/// per platform (a `PUT` naming `ios`, a parallel sender's batch naming `android`, one batch naming none),
/// receipts from both as PushTallyKit and the Android client post them. `campaigns?by=platform` must set each
/// platform's sent, displayed and display rate side by side, equal to a recount of what was sent and posted, in
/// JSON, CSV and the CLI (from the file and through the server alike).
@Suite(.serialized) struct MixedPlatformLiveTests {
    struct Platform {
        let name: String
        let sent: Int
        let receipts: [String]
    }

    static let platforms = [
        // Each receipt id once per device; a retry repeats one (the duplicate counts once).
        Platform(name: "ios", sent: 40, receipts: (0..<30).map { "ios-\($0)" } + ["ios-0"]),
        Platform(name: "android", sent: 25, receipts: (0..<20).map { "and-\($0)" } + ["and-3", "and-4"]),
    ]
    static let unnamedSent = 5

    @Test(arguments: StoreKind.allCases) func eachPlatformsSendsAndDisplayRateSideBySide(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "mixed-platform")
        let server = store.server
        let backend = ["Content-Type": "application/json", "Authorization": "Bearer \(server.adminToken)"]
        func send(_ method: String, _ path: String, _ body: String, headers: [String: String] = backend) async throws {
            let answer = try await httpRequest(server.baseURL.appendingPathComponent(path), method: method, headers: headers, body: Data(body.utf8))
            #expect((200..<300).contains(answer.status), "\(path): \(String(decoding: answer.body, as: UTF8.self))")
        }
        try await send("PUT", "v1/pushes/spring-1", #"{"campaign":"spring","sent_at":"2026-11-20T08:00:00Z","sent":40,"failed":{"BadDeviceToken":2},"platform":"ios"}"#)
        try await send("POST", "v1/pushes/spring-1/sends", #"{"batch_id":"fcm","sent":25,"failed":{"UNREGISTERED":1},"platform":"android"}"#)
        try await send("POST", "v1/pushes/spring-1/sends", #"{"batch_id":"legacy","sent":\#(Self.unnamedSent)}"#)
        // iOS as PushTallyKit posts (a JSON batch), Android as clients/android posts (NDJSON).
        let ios = Self.platforms[0].receipts.map { #"{"push_id":"spring-1","receipt_id":"\#($0)","platform":"ios"}"# }
        try await send("POST", "v1/receipts", "[\(ios.joined(separator: ","))]", headers: ["Content-Type": "application/json"])
        let android = Self.platforms[1].receipts.map { #"{"push_id":"spring-1","receipt_id":"\#($0)","platform":"android"}"# }
        try await send("POST", "v1/receipts", android.joined(separator: "\n"), headers: ["Content-Type": "application/x-ndjson"])

        // JSON: each platform's row against the recount.
        let answer = try await httpRequest(
            URL(string: server.baseURL.absoluteString + "/v1/reports/campaigns?by=platform")!,
            headers: ["Authorization": "Bearer \(server.adminToken)"])
        let rows = try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])["campaigns"] as? [[String: Any]]
        for platform in Self.platforms {
            let unique = Set(platform.receipts).count
            let row = try #require(rows?.first { $0["platform"] as? String == platform.name }, "\(rows ?? [])")
            #expect(row["sent"] as? Int == platform.sent, "\(row)")
            #expect(row["displayed"] as? Int == platform.receipts.count && row["displayed_unique"] as? Int == unique, "\(row)")
            #expect(row["display_rate"] as? Double == Double(unique) / Double(platform.sent), "\(row)")
        }
        let unknown = try #require(rows?.first { $0["platform"] as? String == "unknown" })
        #expect(unknown["sent"] as? Int == Self.unnamedSent && unknown["displayed"] as? Int == 0, "\(unknown)")
        #expect(rows?.reduce(0) { $0 + ($1["sent"] as? Int ?? 0) } == 40 + 25 + Self.unnamedSent)

        // CSV and the CLI: the same rows, from the file and through the server alike.
        let command = ["report", "campaigns", "--by", "platform", "--format", "csv"]
        let local = try await runPushtally(command + store.arguments)
        let remote = try await runPushtally(command + ["--server", server.baseURL.absoluteString, "--token", server.adminToken])
        #expect(local.status == 0 && local.stdout == remote.stdout, "\(local.stderr) \(remote.stderr)")
        let lines = local.stdout.components(separatedBy: "\r\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let rateColumn = try #require(header.firstIndex(of: "display_rate"))
        for platform in Self.platforms {
            let line = try #require(lines.first { $0.hasPrefix("spring,\(platform.name),") }, "\(local.stdout)")
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            #expect(Double(String(cells[rateColumn])) == Double(Set(platform.receipts).count) / Double(platform.sent), "\(line)")
            #expect(line.hasPrefix("spring,\(platform.name),1,\(platform.sent),"), "\(line)")
        }
        let table = try await runPushtally(["report", "campaigns", "--by", "platform"] + store.arguments)
        #expect(table.status == 0 && table.stdout.contains("android") && table.stdout.contains("ios"), "\(table.stdout)")

        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// `pushtally pushes import` takes `platform` as a CSV column and an NDJSON field, on the file and through
    /// the server; each record's sends then count in its platform's row.
    @Test(arguments: StoreKind.allCases) func importedRecordsNameTheirPlatform(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "platform-import")
        let server = store.server
        let csv = server.directory.appendingPathComponent("sends.csv")
        try Data("push_id,campaign,sent,failed:BadDeviceToken,platform\ni-1,fall,30,2,ios\nu-1,fall,7,0,\n".utf8).write(to: csv)
        let ndjson = server.directory.appendingPathComponent("sends.ndjson")
        try Data(#"{"push_id":"a-1","campaign":"fall","sent":20,"failed":{"UNREGISTERED":1},"platform":"android"}"#.utf8 + [0x0A]).write(to: ndjson)
        let local = try await runPushtally(["pushes", "import", csv.path] + store.arguments)
        let remote = try await runPushtally(
            ["pushes", "import", ndjson.path, "--server", server.baseURL.absoluteString, "--token", server.adminToken])
        #expect(local.status == 0 && remote.status == 0, "\(local.stdout) \(local.stderr) \(remote.stdout) \(remote.stderr)")
        let report = try await runPushtally(["report", "campaigns", "--by", "platform", "--format", "csv"] + store.arguments).stdout
        let rows = report.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(5).joined(separator: ",") }
        // campaign, platform, pushes, sent, failed
        #expect(rows == ["fall,android,1,20,1", "fall,ios,1,30,2", "fall,unknown,3,7,0"], "\(report)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
