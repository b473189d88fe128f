import Foundation
import HTTPTypes
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Anonymous clients can send any action id; the reports' columns stay bounded and every event counts.
@Suite struct ActionIDRouteTests {
    /// NDJSON actions of `ids` on push `p`.
    static func ndjson(_ ids: Range<Int>) -> String {
        ids.map { #"{"push_id":"p","action":"flood-\#($0)"}"# }.joined(separator: "\n")
    }

    @Test(arguments: IngestTarget.all) func aFloodOfIDsLeavesTheCampaignCSVBounded(_ target: IngestTarget) async throws {
        try await withApp(target) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            let registered = try await client.json(
                .put, "/v1/pushes/p", #"{"campaign":"spring","app":"com.example.app"}"#, headers: fixture.bearer(.backend))
            #expect(registered.status.kind == .successful, "\(registered.text)")
            let before = try await client.send(.get, "/v1/reports/campaigns?format=csv", headers: fixture.bearer(.read))
            let baseColumns = parseCSV(before.text)[0].count
            for start in stride(from: 0, to: 30_000, by: 10_000) {
                let response = try await client.send(
                    .post, "/v1/actions", headers: [.contentType: "application/x-ndjson"], body: Self.ndjson(start..<start + 10_000))
                #expect(response.status.kind == .successful, "\(response.text)")
            }
            let csv = try await client.send(.get, "/v1/reports/campaigns?format=csv", headers: fixture.bearer(.read))
            let table = parseCSV(csv.text)
            let header = table[0]
            #expect(header.count <= baseColumns + ActionIDs.defaultBound + 1)
            #expect(header.filter { $0.hasPrefix("action:flood-") }.count == ActionIDs.defaultBound)
            #expect(header.contains("action:other"))
            let row = try #require(table.dropFirst().first { $0.first == "spring" })
            let counted = zip(header, row).filter { $0.0.hasPrefix("action:") }.reduce(0) { $0 + (Int($1.1) ?? 0) }
            #expect(counted == 30_000)
            let json = try await campaignRows(client, fixture)
            let actions = try #require(json["spring"]?["actions"] as? [String: Int])
            #expect(actions["other"] == 30_000 - ActionIDs.defaultBound)
        }
    }

    @Test func overflowingIDsAreCountedInTheMetric() async throws {
        try await withApp(.live) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            func overflowed() async throws -> Double {
                let text = try await client.send(.get, "/metrics").text
                let line = text.split(separator: "\n").first { $0.hasPrefix("pushtally_action_ids_overflow_total ") }
                return line.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0
            }
            let before = try await overflowed()
            let response = try await client.send(
                .post, "/v1/actions", headers: [.contentType: "application/x-ndjson"], body: Self.ndjson(0..<(ActionIDs.defaultBound + 6)))
            #expect(response.status.kind == .successful)
            // Other tests of this process may add to the same counter meanwhile, never take from it.
            #expect(try await overflowed() >= before + 6)
        }
    }
}
