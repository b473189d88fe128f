import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyTestSupport
import Testing

/// A report's `from` and `to` over loopback: a date alone is midnight in the report's zone, RFC 3339's lower-case
/// `t` and `z` are read, and a range that ends before it starts is a 400 naming `from`, never an empty 200; the
/// CLI reads its flags the same way.
@Suite struct ReportRangeTests {
    @Test func aRangeEndingBeforeItStartsIsRefusedNamingFrom() async throws {
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            for query in [
                "from=2026-11-28&to=2026-11-27", "from=1795800000&to=1795700000", "to=2026-11-27T00:00:00Z&from=2026-11-27t00:00:01z",
            ] {
                for report in ["campaigns", "pushes", "timeseries", "attribution"] {
                    let answer = try await client.send(.get, "/v1/reports/\(report)?\(query)", headers: fixture.bearer(.read))
                    #expect(answer.status == .badRequest, "\(report)?\(query)")
                    #expect(answer.errorCode == "bad_range" && answer.errorField == "from", "\(report)?\(query): \(answer.text)")
                    #expect(answer.text.contains("is after to"), "\(answer.text)")
                }
            }
            // An empty range is a range still.
            let empty = try await client.send(.get, "/v1/reports/campaigns?from=2026-11-27&to=2026-11-27", headers: fixture.bearer(.read))
            #expect(empty.status == .ok)
        }
    }

    @Test func aDateAloneIsMidnightInTheReportsZone() async throws {
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            // A receipt at 23:30 UTC on the 26th is the 27th in Taipei; one with a lower-case t and z is read too.
            try await client.json(.put, "/v1/pushes/p", #"{"campaign":"c","sent":2,"sent_at":"2026-11-26t23:30:00z"}"#, headers: fixture.bearer(.backend))
            let taipei = try await client.send(
                .get, "/v1/reports/timeseries?from=2026-11-27&to=2026-11-28&tz=Asia/Taipei&bucket=day", headers: fixture.bearer(.read))
            #expect(taipei.status == .ok, "\(taipei.text)")
            let buckets = try #require(taipei.object["buckets"] as? [[String: Any]], "\(taipei.text)")
            #expect(buckets.map { $0["start"] as? String } == ["2026-11-27T00:00:00+08:00"], "\(taipei.text)")
            // Without a zone, UTC's day: the push sent at 23:30 UTC on the 26th is in the 26th, not the 27th.
            let utc = try await client.send(.get, "/v1/reports/pushes?from=2026-11-27&to=2026-11-28", headers: fixture.bearer(.read))
            #expect((utc.object["pushes"] as? [[String: Any]])?.isEmpty == true, "\(utc.text)")
            let day = try await client.send(.get, "/v1/reports/pushes?from=2026-11-26&to=2026-11-27", headers: fixture.bearer(.read))
            #expect((day.object["pushes"] as? [[String: Any]])?.map { $0["push_id"] as? String } == ["p"], "\(day.text)")
            let badDay = try await client.send(.get, "/v1/reports/pushes?from=2026-02-30", headers: fixture.bearer(.read))
            #expect(badDay.status == .badRequest && badDay.errorCode == "bad_timestamp" && badDay.errorField == "from")
        }
    }

    @Test func theCLIReadsItsRangeFlagsAsTheRouteDoes() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        #expect(try await server.stop() == 0)
        let database = ["--database", server.databasePath]
        let backwards = try await runPushtally(["report", "campaigns", "--from", "2026-11-28", "--to", "2026-11-27"] + database)
        #expect(backwards.status == 64, "\(backwards.stderr)")
        #expect(backwards.stderr.contains("from (2026-11-28) is after to (2026-11-27)"), "\(backwards.stderr)")
        let series = try await runPushtally(
            ["report", "timeseries", "--from", "2026-11-27", "--to", "2026-11-28", "--tz", "Asia/Taipei", "--format", "csv"] + database)
        #expect(series.status == 0, "\(series.stderr)")
        #expect(series.stdout.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",").first.map(String.init) } == ["2026-11-27T00:00:00+08:00"], "\(series.stdout)")
        let lowerCase = try await runPushtally(["report", "pushes", "--from", "2026-11-27t08:00:00z", "--format", "json"] + database)
        #expect(lowerCase.status == 0 && lowerCase.stdout == "{\"pushes\":[]}\n", "\(lowerCase.stderr)")
    }
}
