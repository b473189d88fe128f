import Foundation
import HTTPTypes
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Anonymous clients can name any platform and version; the reports keyed by them stay bounded per app and every
/// receipt counts.
@Suite struct DimensionValueRouteTests {
    static let receipts = 6_000

    /// NDJSON receipts of push `p`, the `n`-th naming platform, app version and OS version `flood-n`.
    static func ndjson(_ range: Range<Int>) -> String {
        range.map { #"{"push_id":"p","receipt_id":"r\#($0)","platform":"flood-\#($0)","app_version":"v\#($0)","os_version":"os\#($0)"}"# }
            .joined(separator: "\n")
    }

    @Test(arguments: IngestTarget.all) func aFloodOfPlatformsAndVersionsLeavesTheReportsBounded(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let registered = try await client.json(
                .put, "/v1/pushes/p", #"{"campaign":"spring","app":"com.example.app"}"#, headers: fixture.bearer(.backend))
            #expect(registered.status.kind == .successful, "\(registered.text)")
            // Three anonymous requests of 2,000 receipts, each naming a platform and versions of its own: past
            // every bound (16 platforms, 1,000 versions).
            for start in stride(from: 0, to: Self.receipts, by: 2_000) {
                let response = try await client.send(
                    .post, "/v1/receipts", headers: [.contentType: "application/x-ndjson"], body: Self.ndjson(start..<start + 2_000))
                #expect(response.status.kind == .successful, "\(response.text)")
            }
            let bounds = NameBounds()
            let byPlatform = try await client.send(.get, "/v1/reports/campaigns?by=platform", headers: fixture.bearer(.read))
            let rows = byPlatform.object["campaigns"] as? [[String: Any]] ?? []
            let platforms = rows.filter { $0["campaign"] as? String == "spring" }.compactMap { $0["platform"] as? String }
            // The first platforms of the app, `other`, and `unknown` (the registration's sends, which name none).
            let expected = (0..<bounds.platforms).map { "flood-\($0)" } + [ActionIDs.overflow, ReportGrouping.unknownPlatform]
            #expect(platforms.sorted() == expected.sorted())
            let displayed = rows.filter { $0["campaign"] as? String == "spring" }.reduce(0) { $0 + (($1["displayed"] as? Int) ?? 0) }
            #expect(displayed == Self.receipts)

            for (dimension, prefix, bound) in [("platform", "flood-", bounds.platforms), ("app_version", "v", bounds.versions), ("os_version", "os", bounds.versions)] {
                let versions = try await client.send(.get, "/v1/reports/versions?dimension=\(dimension)&format=csv", headers: fixture.bearer(.read))
                #expect(versions.status == .ok, "\(versions.text)")
                let table = parseCSV(versions.text)
                let column = try #require(table.first?.firstIndex(of: "version"))
                let names = Set(table.dropFirst().map { $0[column] })
                let receipts = try #require(table.first?.firstIndex(of: "receipts"))
                #expect(table.dropFirst().reduce(0) { $0 + (Int($1[receipts]) ?? 0) } == Self.receipts, "\(dimension)")
                #expect(names.filter { $0.hasPrefix(prefix) }.count == bound, "\(dimension)")
                #expect(names.contains(ActionIDs.overflow), "\(dimension)")
            }
        }
    }

    @Test func overflowingNamesAreCountedInTheMetric() async throws {
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            func overflowed() async throws -> Double {
                let text = try await client.send(.get, "/metrics").text
                let line = text.split(separator: "\n").first { $0.hasPrefix(#"pushtally_dimension_values_overflow_total{dimension="platform"} "#) }
                return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            }
            let before = try await overflowed()
            let bound = NameBounds().platforms
            let response = try await client.send(
                .post, "/v1/receipts", headers: [.contentType: "application/x-ndjson"], body: Self.ndjson(0..<(bound + 6)))
            #expect(response.status.kind == .successful)
            // Other tests of this process may add to the same counter meanwhile, never take from it.
            #expect(try await overflowed() >= before + 6)
        }
    }
}
