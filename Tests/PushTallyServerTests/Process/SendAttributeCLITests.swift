import Foundation
import PushTallyTestSupport
import Testing

/// `pushtally report campaigns --by ...` and superseded pushes from the CLI, from the store and from a server.
@Suite(.serialized) struct SendAttributeCLITests {
    @Test(arguments: StoreKind.allCases)
    func campaignsByAnAttributeFromTheFileAndTheServer(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "attributes-cli")
        let server = store.server
        let body = #"""
            [{"push_id":"1","campaign":"c","app":"com.example","collapse_id":"k","priority":10,"sent_at":"2026-11-20T08:00:00Z","sent":3},
             {"push_id":"2","campaign":"c","app":"com.example","collapse_id":"k","priority":5,"sent_at":"2026-11-20T08:02:00Z","sent":2}]
            """#
        let registered = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/pushes"), method: "POST",
            headers: ["Content-Type": "application/json", "Authorization": "Bearer \(server.adminToken)"], body: Data(body.utf8))
        #expect(registered.status == 200, "\(String(decoding: registered.body, as: UTF8.self))")
        let remote = ["--server", server.baseURL.absoluteString, "--token", server.adminToken]
        for format in ["csv", "json", "table"] {
            let arguments = ["report", "campaigns", "--by", "priority", "--format", format]
            let local = try await runPushtally(arguments + store.arguments)
            let viaServer = try await runPushtally(arguments + remote)
            #expect(local.status == 0 && viaServer.status == 0, "\(format): \(local.stderr) \(viaServer.stderr)")
            #expect(local.stdout == viaServer.stdout, "\(format)")
        }
        let csv = try await runPushtally(["report", "campaigns", "--by", "priority", "--format", "csv"] + store.arguments).stdout
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines[0].hasPrefix("campaign,priority,pushes,sent,"), "\(lines[0])")
        #expect(lines[1].hasPrefix("c,5,1,2,") && lines[2].hasPrefix("c,10,1,3,"), "\(csv)")
        // Push 1 was superseded by push 2 two minutes later: its campaign row counts it.
        #expect(lines[2].hasSuffix(",3,1,0,0,0,,,,0,,0,0"), "\(lines[2])")
        // Into a pipe a table has no terminal to fit: 80 columns unless COLUMNS says otherwise.
        let table = try await runPushtally(
            ["report", "campaigns", "--by", "push_type", "--format", "table"] + store.arguments, environment: ["COLUMNS": "120"]).stdout
        #expect(table.hasPrefix("campaign  push type"), "\(table)")
        let pushes = try await runPushtally(["report", "pushes", "--format", "json"] + store.arguments).stdout
        #expect(pushes.contains(#""superseded_after_s":120,"superseded_by":"2""#), "\(pushes)")
        // A value outside the enumeration is a usage error (64) naming by, locally and remotely alike.
        for source in [store.arguments, remote] {
            let refused = try await runPushtally(["report", "campaigns", "--by", "banner"] + source)
            #expect(refused.status == 64, "\(refused.stderr)")
            #expect(refused.stderr.contains("by must be one of priority, push_type"), "\(refused.stderr)")
        }
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }
}
