import Foundation
import PushTallyServer
import PushTallyTestSupport
import Testing

/// `serve --store-timeout`: the bound on a request's store work outside ingest, and the shorter bounds of a token
/// check and a scrape made from it.
@Suite struct StoreDeadlinesTests {
    @Test func theDefaultsAreServesOwn() {
        let defaults = StoreDeadlines()
        #expect(defaults == StoreDeadlines(authorization: .seconds(5), request: .seconds(30), scrape: .seconds(5)))
        #expect(StoreDeadlines(request: .seconds(30)) == defaults, "30 s, the default, gives the default short bounds")
    }

    @Test func aTokenCheckAndAScrapeGetASixthAndNeverLessThanFiveSeconds() {
        #expect(StoreDeadlines(request: .seconds(600)) == StoreDeadlines(authorization: .seconds(100), request: .seconds(600), scrape: .seconds(100)))
        #expect(StoreDeadlines(request: .seconds(12)) == StoreDeadlines(authorization: .seconds(5), request: .seconds(12), scrape: .seconds(5)))
    }

    @Test func serveRefusesAStoreTimeoutOutsideItsRange() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-store-timeout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("t.sqlite").path
        for outside in ["1s", "11m"] {
            let refused = try await runPushtally(["serve", "--port", "0", "--database", database, "--store-timeout", outside])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--store-timeout must be from 5s to 10m, not \(outside)"), "\(refused.stderr)")
        }
        let fromTheEnvironment = try await runPushtally(["serve", "--port", "0", "--database", database], environment: ["PUSHTALLY_STORE_TIMEOUT": "soon"])
        #expect(fromTheEnvironment.status == 64)
        #expect(fromTheEnvironment.stderr.contains("--store-timeout takes a duration"), "\(fromTheEnvironment.stderr)")
    }
}
