import Foundation
import PushTallyTestSupport
import Testing

/// `pushtally report campaigns --by platform`, `--platform` and `report versions --dimension platform`, run
/// as the real binary against the store file and against a server, which must agree.
@Suite(.serialized) struct PlatformCLITests {
    /// Pushes `w` and `i` registered in `campaigns` with 4 sent each; `w` displayed twice on web, once on
    /// android and once with no platform, `i` once on ios and once on the `custom` platform.
    static func seed(_ server: ServerProcess, campaigns: [String: String], custom: String) async throws {
        let admin = ["Content-Type": "application/json", "Authorization": "Bearer \(server.adminToken)"]
        for (push, campaign) in campaigns.sorted(by: { $0.key < $1.key }) {
            let registered = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/pushes/\(push)"), method: "PUT", headers: admin,
                body: Data(#"{"campaign":"\#(campaign)","sent":4}"#.utf8))
            #expect(registered.status < 300)
        }
        let receipts = #"""
            [{"push_id":"w","receipt_id":"1","platform":"web"},{"push_id":"w","receipt_id":"2","platform":"web"},
             {"push_id":"w","receipt_id":"3","platform":"android"},{"push_id":"w","receipt_id":"4"},
             {"push_id":"i","receipt_id":"5","platform":"ios"},{"push_id":"i","receipt_id":"6","platform":"\#(custom)"}]
            """#
        let posted = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(receipts.utf8))
        #expect(posted.status < 300)
    }

    /// Each of `commands` run on the store's file and against its server: both succeed with the same output.
    static func expectFileAndServerAgree(_ store: StoreServer, _ commands: [[String]]) async throws {
        let remote = ["--server", store.server.baseURL.absoluteString, "--token", store.server.adminToken]
        for arguments in commands {
            let local = try await runPushtally(arguments + store.arguments)
            let viaServer = try await runPushtally(arguments + remote)
            #expect(local.status == 0 && viaServer.status == 0, "\(arguments): \(local.stderr) \(viaServer.stderr)")
            #expect(local.stdout == viaServer.stdout, "\(arguments)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func campaignsByPlatformFromTheFileAndTheServer(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "platform-cli")
        let server = store.server
        try await Self.seed(server, campaigns: ["w": "web-sale", "i": "ios-sale"], custom: "kaios")
        try await Self.expectFileAndServerAgree(store, [
            ["report", "campaigns", "--by", "platform", "--format", "csv"],
            ["report", "campaigns", "--platform", "web", "--format", "csv"],
            ["report", "versions", "--dimension", "platform", "--format", "csv"],
        ])
        let split = try await runPushtally(["report", "campaigns", "--by", "platform", "--format", "csv"] + store.arguments).stdout
        let lines = split.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(lines[0].hasPrefix("campaign,platform,pushes,sent,failed,displayed,"), "\(lines[0])")
        // pushes, sent, failed, displayed: sends stay in the unknown row.
        #expect(lines.dropFirst().map { $0.split(separator: ",").prefix(6).joined(separator: ",") } == [
            "ios-sale,ios,1,0,0,1", "ios-sale,kaios,1,0,0,1", "ios-sale,unknown,1,4,0,0",
            "web-sale,android,1,0,0,1", "web-sale,unknown,1,4,0,1", "web-sale,web,1,0,0,2",
        ], "\(split)")
        let web = try await runPushtally(["report", "campaigns", "--platform", "web", "--format", "csv"] + store.arguments).stdout
        let webLines = web.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(webLines[0].hasPrefix("campaign,pushes,sent,failed,displayed,"), "\(webLines[0])")
        #expect(webLines.dropFirst().map { $0.split(separator: ",").prefix(5).joined(separator: ",") } == ["web-sale,1,0,0,2"], "\(web)")
        let versions = try await runPushtally(["report", "versions", "--dimension", "platform", "--format", "csv"] + store.arguments).stdout
        for platform in ["web,2,", "android,1,", "ios,1,", "kaios,1,", "unknown,1,"] {
            #expect(versions.contains("\r\n\(platform)"), "\(platform) in \(versions)")
        }
        // A time range picks the pushes (both had their first receipt now); their events are split whole.
        let ranged = try await runPushtally(
            ["report", "campaigns", "--by", "platform", "--from", "2026-01-01T00:00:00Z", "--format", "csv"] + store.arguments)
        #expect(ranged.status == 0 && ranged.stdout == split, "\(ranged.stderr)")
        let none = try await runPushtally(
            ["report", "campaigns", "--by", "platform", "--to", "2026-01-01T00:00:00Z", "--format", "csv"] + store.arguments)
        #expect(none.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 1, "\(none.stdout)")
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
