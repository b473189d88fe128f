import Foundation
import HTTPTypes
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

/// Names that Unicode calls equal are one name: pushes, campaigns, actions and versions sent in random
/// canonically equivalent spellings (composed or not, the Kelvin and Ångström signs, Hangul as jamo) are stored
/// in NFC, and every report equals a recount over the NFC names, on both stores.
@Suite struct CanonicalNamesRouteTests {
    /// Each name's spellings: the first is its NFC form.
    static let spellings: [[String]] = [
        ["Caf\u{E9}-1", "Cafe\u{301}-1"],
        ["K-1", "\u{212A}-1"],
        ["\u{C5}ngstr\u{F6}m", "A\u{30A}ngstro\u{308}m", "\u{212B}ngstr\u{F6}m"],
        ["\u{D55C}\u{AD6D} \u{CEA0}\u{D398}\u{C778}", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8} \u{110F}\u{1162}\u{11B7}\u{1111}\u{1166}\u{110B}\u{1175}\u{11AB}"],
        ["plain"],
    ]

    static func path(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    @Test(arguments: StoreKind.allCases, [UInt64(1), 7, 2018001])
    func everyReportEqualsARecountOverTheNFCNames(_ kind: StoreKind, seed: UInt64) async throws {
        // The spellings really are distinct bytes and one name to Swift.
        for names in Self.spellings {
            #expect(Set(names.map { Array($0.utf8) }).count == names.count)
            #expect(names.allSatisfy { $0 == names[0] })
        }
        try await withApp(.router, storeKind: kind) { client, fixture in
            var rng = SplitMix64(state: seed)
            let backend = fixture.bearer(.backend)
            func spelling(_ name: Int) -> String { Self.spellings[name].randomElement(using: &rng)! }
            // Pushes named by each name, in two campaigns named by names too; registered in any spelling.
            var campaignOf: [Int: Int] = [:]
            var sent: [Int: Int64] = [:]
            for push in Self.spellings.indices {
                campaignOf[push] = Int.random(in: 0..<2, using: &rng) == 0 ? 3 : 0
                sent[push] = Int64.random(in: 10...50, using: &rng)
                let response = try await client.json(
                    .put, "/v1/pushes/\(Self.path(spelling(push)))",
                    #"{"campaign":"\#(spelling(campaignOf[push]!))","sent":\#(sent[push]!)}"#, headers: backend)
                #expect(response.status.code < 300, "\(response.text)")
                // The same push again in another spelling replaces, never adds a second push.
                let again = try await client.json(
                    .put, "/v1/pushes/\(Self.path(spelling(push)))",
                    #"{"campaign":"\#(spelling(campaignOf[push]!))","sent":\#(sent[push]!)}"#, headers: backend)
                #expect(again.status == .ok, "\(again.text)")
            }
            // Receipts and taps in random spellings, one by one and in batches mixing spellings.
            var displayed: [Int: Int64] = [:]
            var opened: [Int: Int64] = [:]
            for _ in 0..<30 {
                let push = Int.random(in: Self.spellings.indices, using: &rng)
                if Bool.random(using: &rng) {
                    let body = "push_id=\(Self.path(spelling(push)))&app_version=\(Self.path(spelling(2)))"
                    #expect(try await client.form("/v1/receipts", body).status == .noContent)
                    displayed[push, default: 0] += 1
                } else {
                    let other = Int.random(in: Self.spellings.indices, using: &rng)
                    let batch = [
                        #"{"push_id":"\#(spelling(push))","action":"open"}"#, #"{"push_id":"\#(spelling(other))","action":"open"}"#,
                    ].joined(separator: "\n")
                    var headers = HTTPFields()
                    headers[.contentType] = "application/x-ndjson"
                    #expect(try await client.send(.post, "/v1/actions", headers: headers, body: batch).status == .ok)
                    opened[push, default: 0] += 1
                    opened[other, default: 0] += 1
                }
            }
            let read = fixture.bearer(.read)
            // Every push report: one row per name, each with its own figures, whatever spelling asks for it.
            let pushes = try await client.send(.get, "/v1/reports/pushes", headers: read).object["pushes"] as? [[String: Any]] ?? []
            #expect(pushes.count == Self.spellings.count)
            for push in Self.spellings.indices {
                let rows = pushes.filter { Array(($0["push_id"] as? String ?? "").utf8) == Array(Self.spellings[push][0].utf8) }
                #expect(rows.count == 1, "\(Self.spellings[push][0]) in \(pushes.map { $0["push_id"] ?? "" })")
                #expect(rows.first?["sent"] as? Int64 == sent[push])
                #expect(rows.first?["displayed"] as? Int64 == displayed[push] ?? 0)
                #expect(rows.first?["opened"] as? Int64 == opened[push] ?? 0)
                let one = try await client.send(.get, "/v1/reports/pushes/\(Self.path(spelling(push)))", headers: read)
                #expect((one.object["pushes"] as? [[String: Any]])?.first?["displayed"] as? Int64 == displayed[push] ?? 0)
            }
            // The campaign list: one row per campaign name in NFC, sums of its pushes; its drill-down agrees.
            let campaigns = try await client.send(.get, "/v1/reports/campaigns", headers: read).object["campaigns"] as? [[String: Any]] ?? []
            for campaign in Set(campaignOf.values) {
                let members = campaignOf.filter { $0.value == campaign }.map(\.key)
                let rows = campaigns.filter { Array(($0["campaign"] as? String ?? "").utf8) == Array(Self.spellings[campaign][0].utf8) }
                #expect(rows.count == 1)
                #expect(rows.first?["sent"] as? Int64 == members.reduce(0) { $0 + sent[$1]! })
                #expect(rows.first?["displayed"] as? Int64 == members.reduce(0) { $0 + (displayed[$1] ?? 0) })
                let drill = try await client.send(.get, "/v1/reports/campaigns/\(Self.path(spelling(campaign)))", headers: read)
                #expect((drill.object["pushes"] as? [[String: Any]])?.count == members.count)
            }
            #expect(campaigns.count == Set(campaignOf.values).count)
            // The version named in any spelling is one version, in NFC.
            let versions = try await client.send(.get, "/v1/reports/versions?dimension=app_version", headers: read).body
            let bytes = Array(versions.readableBytesView)
            #expect(bytes.firstRange(of: Array(Self.spellings[2][0].utf8)) != nil)
            for other in Self.spellings[2].dropFirst() { #expect(bytes.firstRange(of: Array(other.utf8)) == nil) }
        }
    }
}
