import Foundation
import PushTallyTestSupport
import Testing

/// Sessions and conversions sent by `curl` with its defaults to the real `pushtally serve`, on each store, on the
/// fast path and with `--no-fast-path`; the attribution report read back by Python's `urllib` and by the CLI.
@Suite(.serialized) struct OutcomeLiveTests {
    static let paths: [[String]] = [[], ["--no-fast-path"]]

    @Test(arguments: StoreKind.allCases, paths)
    func curlPostsAndTheReportCreditsThem(kind: StoreKind, path: [String]) async throws {
        let store = try await StoreServer.start(kind, name: "outcomes", extraArguments: path)
        let server = store.server
        let t = Int(Date().timeIntervalSince1970) - 3600
        // `curl -d` sends a form (`application/x-www-form-urlencoded`) and `Expect` nothing for small bodies.
        let posts: [(String, String)] = [
            ("receipts", "push_id=p1&device_id=d1&ts=\(t)"),
            ("actions", "push_id=p1&device_id=d1&action=open&ts=\(t + 10)"),
            ("receipts", "push_id=p1&device_id=d3&ts=\(t)"),
            // d1 tapped p1 a minute before: a direct open. d3 saw p1 ten minutes before: an influenced open.
            ("sessions", "device_id=d1&session_id=s1&ts=\(t + 60)"),
            ("sessions", "device_id=d3&session_id=s3&ts=\(t + 600)"),
            ("sessions", "device_id=d2&session_id=s2&ts=\(t + 60)"),
            ("conversions", "device_id=d1&event=purchase&value=9.99&currency=USD&conversion_id=c1&ts=\(t + 120)"),
            // The retry of a conversion whose answer was lost counts once.
            ("conversions", "device_id=d1&event=purchase&value=9.99&currency=USD&conversion_id=c1&ts=\(t + 120)"),
            ("conversions", "device_id=d2&event=purchase&value=5&currency=EUR&ts=\(t + 120)"),
        ]
        for (route, body) in posts {
            let (status, output) = try await Self.curl(server, route, body)
            #expect(status == "204", "\(route) \(body): \(status) \(output)")
        }
        let (badStatus, badBody) = try await Self.curl(server, "conversions", "device_id=d1&event=buy&value=1&currency=XYZ")
        #expect(badStatus == "400")
        let error = try JSONSerialization.jsonObject(with: Data(badBody.utf8)) as? [String: Any]
        #expect(error?["error"] as? String == "invalid_currency" && error?["field"] as? String == "currency", "\(badBody)")

        let range = ["from": t - 3600, "to": t + 7200]
        let json = try await Self.python(server, query: range.mapValues(String.init).merging(["format": "json"]) { $1 })
        #expect(json.status == 200, "\(json.body)")
        let row = try #require((try JSONSerialization.jsonObject(with: Data(json.body.utf8)) as? [String: Any])?["attribution"] as? [[String: Any]]).first
        let expected: [String: Int] = [
            "sessions": 3, "direct_opens": 1, "influenced_opens": 1, "unattributed_sessions": 1, "conversions": 1,
            "conversions_direct": 1, "conversions_influenced": 0, "unattributed_conversions": 1,
        ]
        for (column, count) in expected { #expect(row?[column] as? Int == count, "\(kind) \(path) \(column): \(json.body)") }
        #expect(json.body.contains(#""conversion_value":{"USD":9.99}"#), "\(json.body)")
        #expect(json.body.contains(#""unattributed_conversion_value":{"EUR":5}"#), "\(json.body)")

        let csv = try await Self.python(server, query: range.mapValues(String.init).merging(["format": "csv"]) { $1 })
        let records = csv.body.split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(records.count == 2, "\(csv.body)")
        let usd = try #require(records.first?.firstIndex(of: "conversion_value:USD"), "\(csv.body)")
        #expect(records.last?[usd] == "9.99")
        #expect(records.first?.contains("unattributed_conversion_value:EUR") == true)
        // By event time: a range after the events holds none of them.
        let later = try await Self.python(server, query: ["from": String(t + 7200), "format": "json"])
        #expect(later.body.contains(#""sessions":0"#), "\(later.body)")
        let unknown = try await Self.python(server, query: ["campaign": "spring"])
        #expect(unknown.status == 400 && unknown.body.contains(#""field":"campaign""#), "\(unknown.body)")

        // The push's own row carries its credits: 1 influenced open of 2 unique displays.
        let pushes = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/pushes/p1"), headers: ["Authorization": "Bearer \(server.adminToken)"])
        let push = (try JSONSerialization.jsonObject(with: pushes.body) as? [String: Any])?["pushes"] as? [[String: Any]]
        #expect(push?.first?["influenced_opens"] as? Int == 1, "\(String(decoding: pushes.body, as: UTF8.self))")
        #expect(push?.first?["influenced_open_rate"] as? Double == 0.5)
        #expect(push?.first?["conversions_direct"] as? Int == 1)
        #expect(try await server.stop() == 0)
        await store.cleanUp()
    }

    /// `curl -sS -d BODY URL`: the status code and the body.
    static func curl(_ server: ServerProcess, _ route: String, _ body: String) async throws -> (String, String) {
        let url = server.baseURL.appendingPathComponent("v1/\(route)").absoluteString
        let run = try await runProcess("/usr/bin/env", ["curl", "-sS", "-w", "\n%{http_code}", "-d", body, url])
        let lines = run.output.split(separator: "\n", omittingEmptySubsequences: false)
        return (String(lines.last ?? ""), lines.dropLast().joined(separator: "\n"))
    }

    /// `GET /v1/reports/attribution` with `query` encoded by Python's `urllib.parse.urlencode`; times given as
    /// unix seconds are sent as ISO 8601 with a `+00:00` offset, whose `+` only survives percent-encoded.
    static func python(_ server: ServerProcess, query: [String: String]) async throws -> (status: Int, body: String) {
        let script = """
            import datetime, json, sys, urllib.error, urllib.parse, urllib.request
            query = json.loads(sys.argv[3])
            for name in ("from", "to"):
                if name in query:
                    query[name] = datetime.datetime.fromtimestamp(int(query[name]), datetime.timezone.utc).isoformat()
            request = urllib.request.Request(sys.argv[1] + "?" + urllib.parse.urlencode(query), headers={"Authorization": "Bearer " + sys.argv[2]})
            try:
                with urllib.request.urlopen(request) as response:
                    print(response.status); sys.stdout.write(response.read().decode())
            except urllib.error.HTTPError as error:
                print(error.code); sys.stdout.write(error.read().decode())
            """
        let url = server.baseURL.appendingPathComponent("v1/reports/attribution").absoluteString
        let encoded = String(decoding: try JSONSerialization.data(withJSONObject: query), as: UTF8.self)
        let run = try await runProcess("/usr/bin/env", ["python3", "-c", script, url, server.adminToken, encoded])
        let status = run.output.prefix { $0 != "\n" }
        return (Int(status) ?? 0, String(run.output.dropFirst(status.count + 1)))
    }
}
