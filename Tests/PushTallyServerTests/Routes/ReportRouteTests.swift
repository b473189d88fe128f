import CompressNIO
import Foundation
import PushTallyTestSupport
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import Testing

@testable import PushTallyServer

/// Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF) back into rows.
func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var quoted = false
    var iterator = Array(text.unicodeScalars).makeIterator()
    var pending: Unicode.Scalar? = nil
    while let c = pending ?? iterator.next() {
        pending = nil
        if quoted {
            if c == "\"" {
                let next = iterator.next()
                if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
            } else {
                field.unicodeScalars.append(c)
            }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            row.append(field)
            field = ""
        } else if c == "\r" {
            continue
        } else if c == "\n" {
            row.append(field)
            rows.append(row)
            row = []
            field = ""
        } else {
            field.unicodeScalars.append(c)
        }
    }
    return rows
}

@Suite struct ReportRouteTests {
    /// Two campaigns (one with a CJK name, one a formula), retries, actions and one orphan push.
    func seed(_ client: any TestClientProtocol, _ fixture: TestFixture) async throws {
        let backend = fixture.bearer(.backend)
        try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"新年促销","sent":4,"failed":{"Unregistered":1}}"#, headers: backend)
        try await client.json(.put, "/v1/pushes/p2", #"{"campaign":"新年促销","sent":2}"#, headers: backend)
        try await client.json(.put, "/v1/pushes/p3", #"{"campaign":"=HYPERLINK(\"http://x\")","sent":0}"#, headers: backend)
        try await client.json(
            .post, "/v1/receipts",
            #"[{"push_id":"p1","device_id":"a"},{"push_id":"p1","device_id":"a"},{"push_id":"p1","device_id":"b"},{"push_id":"p2","receipt_id":"r"},{"push_id":"p3"},{"push_id":"orphan-1"}]"#)
        try await client.json(
            .post, "/v1/actions",
            #"[{"push_id":"p1","action":"open","device_id":"a"},{"push_id":"p1","action":"open","device_id":"a"},{"push_id":"p1","action":"view"},{"push_id":"p2","action":"dismiss"}]"#)
    }

    @Test(arguments: StoreKind.allCases) func campaignReportHasTheContractFields(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await seed(client, fixture)
            let rows = try await campaignRows(client, fixture)
            let row = try #require(rows["新年促销"])
            #expect(row["pushes"] as? Int == 2)
            #expect(row["sent"] as? Int == 6)
            #expect(row["failed"] as? Int == 1)
            #expect(row["displayed"] as? Int == 4)
            #expect(row["duplicates"] as? Int == 1)
            #expect(row["displayed_unique"] as? Int == 3)
            #expect(row["display_rate"] as? Double == 0.5)
            #expect(row["opened"] as? Int == 2)
            #expect(row["opened_unique"] as? Int == 1)
            #expect(row["open_rate"] as? Double == 1.0 / 3.0)
            #expect(row["dismissed"] as? Int == 1)
            #expect(row["actions"] as? [String: Int] == ["view": 1])
            #expect(row["orphan"] as? Bool == false)
            // Nothing sent: the rate is null, not NaN or a crash.
            #expect(rows["=HYPERLINK(\"http://x\")"]?["display_rate"] is NSNull)
            let orphan = try #require(rows[""])
            #expect(orphan["orphan"] as? Bool == true)
            #expect(orphan["campaign"] is NSNull)
            #expect(orphan["displayed"] as? Int == 1)
        }
    }

    @Test(arguments: StoreKind.allCases) func csvParsedBackEqualsJSON(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await seed(client, fixture)
            let json = try await client.send(.get, "/v1/reports/campaigns", headers: fixture.bearer(.read))
            let csv = try await client.send(.get, "/v1/reports/campaigns?format=csv", headers: fixture.bearer(.read))
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            #expect(csv.headers[.contentDisposition]?.contains("pushtally-campaigns-") == true)
            #expect(csv.text.contains("\r\n"))
            let table = parseCSV(csv.text)
            let header = table[0]
            #expect(Array(header.prefix(12)) == [
                "campaign", "pushes", "sent", "failed", "displayed", "duplicates", "displayed_unique", "display_rate",
                "opened", "opened_unique", "open_rate", "dismissed",
            ])
            #expect(header.last == "action:view")
            let jsonRows = try #require(json.object["campaigns"] as? [[String: Any]])
            #expect(table.count - 1 == jsonRows.count)
            for (cells, object) in zip(table.dropFirst(), jsonRows) {
                for (name, cell) in zip(header, cells) {
                    if name.hasPrefix("action:") {
                        let actions = object["actions"] as? [String: Int] ?? [:]
                        #expect(Int(cell) == actions[String(name.dropFirst(7))] ?? 0, "\(name)")
                        continue
                    }
                    switch object[name] {
                    case let flag as Bool where cell == "true" || cell == "false":
                        #expect(cell == String(flag))
                    case let number as NSNumber:
                        #expect(Double(cell) == number.doubleValue, "\(name)")
                    case let text as String:
                        #expect(cell == CSVRenderer.neutralised(text), "\(name)")
                    case is NSNull:
                        #expect(cell == "", "\(name)")
                    default:
                        Issue.record("unexpected \(name) = \(String(describing: object[name]))")
                    }
                }
            }
            // The formula campaign is neutralised in CSV, literal in JSON.
            #expect(csv.text.contains("\"'=HYPERLINK(\"\"http://x\"\")\""))
        }
    }

    @Test(arguments: StoreKind.allCases) func acceptHeaderBomAndGzip(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await seed(client, fixture)
            let viaAccept = try await client.send(
                .get, "/v1/reports/campaigns", headers: fixture.bearer(.read).merging([.accept: "text/csv"]))
            #expect(viaAccept.text.hasPrefix("campaign,"))
            let bom = try await client.send(.get, "/v1/reports/campaigns?format=csv&bom=1", headers: fixture.bearer(.read))
            #expect(Array(bom.body.readableBytesView.prefix(3)) == [0xEF, 0xBB, 0xBF])
            let gzipped = try await client.send(
                .get, "/v1/reports/campaigns", headers: fixture.bearer(.read).merging([.acceptEncoding: "gzip, deflate, br"]))
            #expect(gzipped.headers[.contentEncoding] == "gzip")
            var body = gzipped.body
            let inflated = try body.decompress(with: .gzip())
            let plain = try await client.send(.get, "/v1/reports/campaigns", headers: fixture.bearer(.read))
            #expect(String(buffer: inflated) == plain.text)
            let bad = try await client.send(.get, "/v1/reports/campaigns?format=xml", headers: fixture.bearer(.read))
            #expect(bad.status == .badRequest)
            #expect(bad.errorField == "format")
        }
    }

    @Test(arguments: StoreKind.allCases) func emptyReportsStillHaveAHeader(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let csv = try await client.send(.get, "/v1/reports/campaigns?format=csv", headers: fixture.bearer(.read))
            #expect(csv.text.hasPrefix("campaign,pushes,sent,"))
            let json = try await client.send(.get, "/v1/reports/campaigns", headers: fixture.bearer(.read))
            #expect(json.text == #"{"campaigns":[]}"#)
        }
    }

    @Test(arguments: StoreKind.allCases) func drillDownOrphansAndSinglePush(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await seed(client, fixture)
            let campaign = "新年促销".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)!
            let drill = try await client.send(.get, "/v1/reports/campaigns/\(campaign)", headers: fixture.bearer(.read))
            let pushes = try #require(drill.object["pushes"] as? [[String: Any]])
            #expect(pushes.map { $0["push_id"] as? String } == ["p1", "p2"])
            #expect(pushes[0]["displayed_unique"] as? Int == 2)
            let orphans = try await client.send(.get, "/v1/reports/pushes?orphan=true", headers: fixture.bearer(.read))
            #expect((orphans.object["pushes"] as? [[String: Any]])?.map { $0["push_id"] as? String } == ["orphan-1"])
            let one = try await client.send(.get, "/v1/reports/pushes/p2", headers: fixture.bearer(.read))
            #expect((one.object["pushes"] as? [[String: Any]])?.first?["dismissed"] as? Int == 1)
            #expect(try await client.send(.get, "/v1/reports/pushes/nope", headers: fixture.bearer(.read)).status == .notFound)
            #expect(try await client.send(.get, "/v1/reports/campaigns/nope", headers: fixture.bearer(.read)).status == .notFound)
            // Past what ingest and registration take, an id names nothing that could be stored: a 400 that says so.
            let longest = String(repeating: "x", count: 128)
            #expect(try await client.send(.get, "/v1/reports/pushes/\(longest)", headers: fixture.bearer(.read)).status == .notFound)
            for (path, field) in [("pushes/\(longest)x", "push_id"), ("campaigns/\(String(repeating: "y", count: 257))", "campaign")] {
                let refused = try await client.send(.get, "/v1/reports/\(path)", headers: fixture.bearer(.read))
                #expect(refused.status == .badRequest, "\(refused.text)")
                #expect(refused.errorCode == "too_long" && refused.errorField == field, "\(refused.text)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func lateRegistrationTurnsOrphansIntoACampaign(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.form("/v1/receipts", "push_id=late&device_id=a")
            try await client.form("/v1/receipts", "push_id=late&device_id=a")
            #expect(try await campaignRows(client, fixture)[""]?["displayed_unique"] as? Int == 1)
            try await client.json(.put, "/v1/pushes/late", #"{"campaign":"spring","sent":2}"#, headers: fixture.bearer(.backend))
            let rows = try await campaignRows(client, fixture)
            #expect(rows[""] == nil)
            #expect(rows["spring"]?["display_rate"] as? Double == 0.5)
        }
    }

    @Test(arguments: StoreKind.allCases) func filtersByTimeWithBadTimesRejected(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let backend = fixture.bearer(.backend)
            try await client.json(.put, "/v1/pushes/a", #"{"campaign":"old","sent_at":"2026-01-01T00:00:00Z"}"#, headers: backend)
            try await client.json(.put, "/v1/pushes/b", #"{"campaign":"new","sent_at":"2026-11-01T00:00:00Z"}"#, headers: backend)
            let rows = try await campaignRows(client, fixture, query: "?from=2026-06-01T00:00:00Z&to=1798761600")
            #expect(Array(rows.keys) == ["new"])
            let bad = try await client.send(.get, "/v1/reports/campaigns?from=someday", headers: fixture.bearer(.read))
            #expect(bad.status == .badRequest)
            #expect(bad.errorField == "from")
        }
    }

    @Test(arguments: StoreKind.allCases) func healthzReportsWritable(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, _: TestFixture) async throws in
            let response = try await client.send(.get, "/healthz")
            #expect(response.status == .ok)
            #expect(response.object["status"] as? String == "ok")
        }
    }
}

@Suite struct TimeseriesRouteTests {
    @Test(arguments: StoreKind.allCases) func timeseriesJSONShapeAndCSV(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await client.json(.put, "/v1/pushes/p1", #"{"campaign":"c","app":"com.example","environment":"production"}"#, headers: fixture.bearer(.backend))
            try await client.form("/v1/receipts", "push_id=p1&device_id=a")
            try await client.form("/v1/actions", "push_id=p1&device_id=a&action=open")
            let json = try await client.send(
                .get, "/v1/reports/timeseries?campaign=c&bucket=hour&tz=Asia/Taipei", headers: fixture.bearer(.read))
            #expect(json.status == .ok)
            #expect(json.object["bucket"] as? String == "hour")
            #expect(json.object["tz"] as? String == "Asia/Taipei")
            let buckets = try #require(json.object["buckets"] as? [[String: Any]])
            #expect(buckets.count == 1)
            #expect((buckets[0]["start"] as? String)?.hasSuffix(":00:00+08:00") == true)
            #expect(buckets[0]["displayed"] as? Int == 1)
            #expect(buckets[0]["opened_unique"] as? Int == 1)
            let csv = try await client.send(.get, "/v1/reports/timeseries?format=csv&app=com.example", headers: fixture.bearer(.read))
            #expect(csv.text.hasPrefix("start,displayed,duplicates,displayed_unique,opened,opened_unique,dismissed\r\n"))
            #expect(csv.headers[.contentDisposition]?.contains("pushtally-timeseries-") == true)
            let otherApp = try await client.send(.get, "/v1/reports/timeseries?app=com.other", headers: fixture.bearer(.read))
            #expect((otherApp.object["buckets"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: StoreKind.allCases) func badZoneOrBucketIs400(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let zone = try await client.send(.get, "/v1/reports/timeseries?tz=Mars/Olympus", headers: fixture.bearer(.read))
            #expect(zone.status == .badRequest)
            #expect(zone.errorField == "tz")
            let bucket = try await client.send(.get, "/v1/reports/timeseries?bucket=week", headers: fixture.bearer(.read))
            #expect(bucket.status == .badRequest)
            #expect(bucket.errorField == "bucket")
            let range = try await client.send(
                .get, "/v1/reports/timeseries?bucket=hour&from=0&to=1795305600", headers: fixture.bearer(.read))
            #expect(range.status == .badRequest)
            #expect(range.errorCode == "too_many_buckets")
        }
    }

    @Test(arguments: StoreKind.allCases) func reportsFilterByAppAndEnvironment(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let backend = fixture.bearer(.backend)
            try await client.json(.put, "/v1/pushes/a", #"{"campaign":"c","app":"com.one","environment":"production","sent":1}"#, headers: backend)
            try await client.json(.put, "/v1/pushes/b", #"{"campaign":"c","app":"com.one","environment":"sandbox","sent":2}"#, headers: backend)
            try await client.json(.put, "/v1/pushes/c", #"{"campaign":"c","app":"com.two","environment":"production","sent":4}"#, headers: backend)
            #expect(try await campaignRows(client, fixture, query: "?app=com.one")["c"]?["sent"] as? Int == 3)
            #expect(try await campaignRows(client, fixture, query: "?environment=production")["c"]?["sent"] as? Int == 5)
            #expect(try await campaignRows(client, fixture, query: "?app=com.one&environment=sandbox")["c"]?["sent"] as? Int == 2)
            let bad = try await client.json(.put, "/v1/pushes/d", #"{"campaign":"c","environment":"staging"}"#, headers: backend)
            #expect(bad.errorField == "environment")
        }
    }
}
