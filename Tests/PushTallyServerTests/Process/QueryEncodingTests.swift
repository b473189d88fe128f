import Foundation
import HummingbirdTesting
import PushTallyPostgres
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Query strings as clients nobody here wrote encode them (Python's `urlencode`, `curl -G --data-urlencode`),
/// and strict parameters, on both stores.
@Suite struct QueryEncodingTests {
    static let hardNames = ["Abandoned cart", "a+b & c=d", "50% off #1", "新品 上架", "🎉 launch"]

    /// Campaign `i` of `names` gets `i + 1` receipts: each name's figures differ.
    static func seed(_ server: ServerProcess, names: [String] = hardNames) async throws {
        let admin = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        for (index, name) in names.enumerated() {
            let body = try JSONSerialization.data(withJSONObject: ["campaign": name, "sent": 10, "sent_at": 1_795_000_000])
            let registered = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/pushes/hard-\(index)"), method: "PUT", headers: admin, body: body)
            #expect(registered.status == 201)
            let receipts = (0...index).map { #"{"push_id":"hard-\#(index)","receipt_id":"r\#($0)","ts":1795000060}"# }
            let posted = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
                body: Data(("[" + receipts.joined(separator: ",") + "]").utf8))
            #expect(posted.status == 200)
        }
    }

    /// Each name through every report route that takes a campaign, and the drill-down by path, as Python's
    /// `urlencode` and `curl -G --data-urlencode` send it, against a real `pushtally serve` on each store.
    @Test(arguments: StoreKind.allCases)
    func hardNamesRoundTripThroughPythonAndCurl(kind: StoreKind) async throws {
        let store = try await StoreServer.start(kind, name: "query")
        let server = store.server
        try await Self.seed(server)
        let port = try #require(server.baseURL.port)
        for (index, name) in Self.hardNames.enumerated() {
            let displayed = index + 1
            for tool in ["python", "curl"] {
                for (path, rowsKey) in [("campaigns", "campaigns"), ("pushes", "pushes"), ("timeseries", "buckets"), ("versions", "versions")] {
                    let body = try await Self.get(tool, port: port, token: server.adminToken, path: "/v1/reports/\(path)", campaign: name)
                    let rows = try #require(body[rowsKey] as? [[String: Any]], "\(tool) \(path) \(name): \(body)")
                    let total = rows.reduce(0) { $0 + (($1["displayed"] as? Int) ?? ($1["receipts"] as? Int) ?? 0) }
                    #expect(total == displayed, "\(tool) \(path) \(name): \(rows)")
                }
                // The drill-down names its campaign in the path, percent-encoded.
                let drill = try await Self.get(tool, port: port, token: server.adminToken, path: "/v1/reports/campaigns/" + Self.pathEncoded(name), campaign: nil)
                let pushes = try #require(drill["pushes"] as? [[String: Any]], "\(tool) drill-down \(name): \(drill)")
                #expect(pushes.map { $0["campaign"] as? String } == [name])
            }
        }
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// Every bad value of an enumerated or typed parameter, and every parameter a route does not take, is a 400
    /// that names the parameter, never an empty 200.
    @Test(arguments: StoreKind.allCases)
    func everyBadParameterIsA400NamingIt(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { client, fixture in
            let cases: [(String, String)] = [
                ("/v1/reports/campaigns?environment=prod", "environment"),
                ("/v1/reports/campaigns?format=xml", "format"),
                ("/v1/reports/campaigns?bom=yes", "bom"),
                ("/v1/reports/campaigns?from=yesterday", "from"),
                ("/v1/reports/campaigns?to=soon", "to"),
                ("/v1/reports/campaigns?campaing=typo", "campaing"),
                ("/v1/reports/campaigns?campaign=a&campaign=b", "campaign"),
                ("/v1/reports/campaigns/x?campaign=y", "campaign"),
                ("/v1/reports/pushes?orphan=maybe", "orphan"),
                ("/v1/reports/pushes/p1?environment=production", "environment"),
                ("/v1/reports/timeseries?bucket=week", "bucket"),
                ("/v1/reports/timeseries?tz=Mars/Olympus", "tz"),
                ("/v1/reports/timeseries?bucket=hour&bucket=day", "bucket"),
                ("/v1/reports/versions?dimension=sdk", "dimension"),
                ("/v1/reports/attribution?campaign=spring", "campaign"),
                ("/v1/reports/attribution?app=com.example", "app"),
                ("/v1/reports/attribution?environment=production", "environment"),
                ("/v1/reports/attribution?from=yesterday", "from"),
                ("/v1/reports/attribution?format=xml", "format"),
                ("/healthz?verbose=1", "verbose"),
                ("/metrics?name=x", "name"),
            ]
            for (uri, parameter) in cases {
                let response = try await client.send(.get, uri, headers: fixture.bearer(.read))
                #expect(response.status == .badRequest, "\(uri): \(response.status) \(response.text)")
                #expect(response.errorField == parameter, "\(uri): \(response.text)")
                #expect(response.object["message"] as? String != nil)
            }
            let allowed = try await client.send(.get, "/v1/reports/campaigns?environment=prod", headers: fixture.bearer(.read))
            #expect((allowed.object["message"] as? String)?.contains("production, sandbox") == true)
            // The ingest routes take `key` only; a body is not stored when its query is refused.
            let refused = try await client.form("/v1/receipts?ref=push", "push_id=p1")
            #expect(refused.status == .badRequest && refused.errorField == "ref")
            let session = try await client.form("/v1/sessions?ref=push", "device_id=d1&session_id=s1")
            #expect(session.status == .badRequest && session.errorField == "ref")
            #expect(try await client.form("/v1/receipts?key=", "push_id=p1").status == .noContent)
            #expect(try await fixture.store.rawEventCount() == 1)
        }
    }

    /// A query as a tool encodes it, answered as JSON.
    static func get(_ tool: String, port: Int, token: String, path: String, campaign: String?) async throws -> [String: Any] {
        let url = "http://127.0.0.1:\(port)\(path)"
        let (status, output): (Int32, String)
        if tool == "python" {
            let script = """
                import json, sys, urllib.parse, urllib.request
                query = {"format": "json"}
                if len(sys.argv) > 3: query["campaign"] = sys.argv[3]
                request = urllib.request.Request(sys.argv[1] + "?" + urllib.parse.urlencode(query), headers={"Authorization": "Bearer " + sys.argv[2]})
                print(urllib.request.urlopen(request).read().decode())
                """
            (status, output) = try await runProcess("/usr/bin/env", ["python3", "-c", script, url, token] + (campaign.map { [$0] } ?? []))
        } else {
            let data = ["--data-urlencode", "format=json"] + (campaign.map { ["--data-urlencode", "campaign=\($0)"] } ?? [])
            (status, output) = try await runProcess("/usr/bin/env", ["curl", "-sS", "--fail-with-body", "-G", url, "-H", "Authorization: Bearer \(token)"] + data)
        }
        #expect(status == 0, "\(tool) \(path): \(output)")
        return (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
    }

    static func pathEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))) ?? text
    }
}
