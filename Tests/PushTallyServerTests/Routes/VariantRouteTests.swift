import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyCore
import PushTallyTestSupport
import Testing

/// `GET /v1/reports/campaigns/{campaign}/variants` on each store: counts pooled per variant, rates exact,
/// intervals and p-values as statsmodels gives them, the control picked as asked, and the refusals.
@Suite struct VariantRouteTests {
    /// Each arm's pushes as (id, variant, sent, devices that displayed, devices of those that opened).
    static let pushes: [(String, String?, Int, Int, Int)] = [
        ("a1", "A", 40, 20, 4), ("a2", "A", 10, 5, 1),
        ("b1", "B", 50, 35, 14),
        ("c1", "control", 30, 12, 0),
        // A one-push, one-send arm, and a push in no arm.
        ("s1", "solo", 1, 1, 1),
        ("n1", nil, 9, 9, 9),
    ]

    /// Registers the pushes and posts a display (twice for `b1`: a retry counts once) and the opens.
    static func seed(_ client: any TestClientProtocol, _ fixture: TestFixture) async throws {
        for (id, variant, sent, _, _) in pushes {
            let variantField = variant.map { #","variant":"\#($0)""# } ?? ""
            let body = #"{"campaign":"spring","app":"com.one","sent":\#(sent)\#(variantField)}"#
            let answer = try await client.json(.put, "/v1/pushes/\(id)", body, headers: fixture.bearer(.backend))
            #expect(answer.status.code < 300, "\(answer.text)")
        }
        var receipts: [String] = []
        var opens: [String] = []
        for (id, _, _, displayed, opened) in pushes {
            for device in 0..<displayed { receipts.append(#"{"push_id":"\#(id)","device_id":"\#(id)-\#(device)"}"#) }
            for device in 0..<opened { opens.append(#"{"push_id":"\#(id)","device_id":"\#(id)-\#(device)","action":"open"}"#) }
        }
        receipts.append(#"{"push_id":"b1","device_id":"b1-0"}"#)
        for (route, events) in [("/v1/receipts", receipts), ("/v1/actions", opens)] {
            let answer = try await client.json(.post, route, "[" + events.joined(separator: ",") + "]")
            #expect(answer.status == .ok, "\(answer.text)")
        }
    }

    static func report(_ client: any TestClientProtocol, _ fixture: TestFixture, _ query: String = "") async throws -> TestResponse {
        try await client.send(.get, "/v1/reports/campaigns/spring/variants\(query)", headers: fixture.bearer(.read))
    }

    /// The figures each row must have, counts from the pushes above and statistics from statsmodels.
    static func expectFigures(_ rows: [[String: Any]], control: String) async throws {
        let arms = ["A": (50, 25, 5), "B": (50, 35, 14), "control": (30, 12, 0), "solo": (1, 1, 1)]
        #expect(rows.map { $0["variant"] as? String } == ["A", "B", "control", "solo"])
        let base = try #require(arms[control])
        let names = arms.keys.sorted()
        let cases = names.flatMap { name -> [StatsmodelsReference.Case] in
            let (sent, displayed, opened) = arms[name]!
            return [
                .init(Int64(displayed), of: Int64(sent), against: Int64(base.1), of: Int64(base.0)),
                .init(Int64(opened), of: Int64(displayed), against: Int64(base.2), of: Int64(base.1)),
            ]
        }
        let answers = try await StatsmodelsReference.answers(cases)
        for (index, row) in rows.enumerated() {
            let name = names[index]
            let (sent, displayed, opened) = arms[name]!
            let isControl = name == control
            #expect(row["control"] as? Bool == isControl)
            #expect(row["sent"] as? Int == sent && row["displayed"] as? Int == displayed && row["opened"] as? Int == opened, "\(row)")
            #expect(row["display_rate"] as? Double == Double(displayed) / Double(sent))
            #expect(row["open_rate"] as? Double == Double(opened) / Double(displayed))
            for (rate, answer) in [("display_rate", answers[2 * index]), ("open_rate", answers[2 * index + 1])] {
                VariantStatisticsTests.expectClose(row["\(rate)_ci_low"] as? Double, answer.intervals[0]?[0], "\(name) \(rate) low")
                VariantStatisticsTests.expectClose(row["\(rate)_ci_high"] as? Double, answer.intervals[0]?[1], "\(name) \(rate) high")
                VariantStatisticsTests.expectClose(
                    row["\(rate)_p_value"] as? Double, isControl ? nil : answer.pValue, "\(name) \(rate) p-value against \(control)")
                #expect((row["\(rate)_p_value"] is NSNull) == (isControl || answer.pValue == nil), "\(name) \(rate)")
            }
            let lift = row["display_rate_lift"] as? Double
            let expected = isControl ? nil : (Double(displayed) / Double(sent)) / (Double(base.1) / Double(base.0)) - 1
            VariantStatisticsTests.expectClose(lift, expected, "\(name) lift")
        }
    }

    @Test(arguments: StoreKind.allCases) func variantsAgainstTheDefaultAndAChosenControl(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await Self.seed(client, fixture)
            let json = try await Self.report(client, fixture)
            #expect(json.status == .ok, "\(json.text)")
            #expect(json.object["campaign"] as? String == "spring")
            #expect(json.object["control"] as? String == "control")
            #expect(json.object["pushes_without_variant"] as? Int == 1)
            let rows = try #require(json.object["variants"] as? [[String: Any]])
            try await Self.expectFigures(rows, control: "control")
            // The control never opened: no open lift for anyone; a p-value where the pooled rate is not 0.
            #expect(rows.allSatisfy { $0["open_rate_lift"] is NSNull })
            #expect(rows[2]["pushes"] as? Int == 1 && rows[0]["pushes"] as? Int == 2)

            let chosen = try await Self.report(client, fixture, "?control=A")
            #expect(chosen.object["control"] as? String == "A")
            try await Self.expectFigures(try #require(chosen.object["variants"] as? [[String: Any]]), control: "A")

            // CSV holds the same figures as JSON, row for row, nulls as empty cells.
            let csv = try await Self.report(client, fixture, "?control=A&format=csv")
            #expect(csv.headers[.contentDisposition]?.contains("pushtally-variants-") == true)
            let records = CSVParser.parse(csv.text)
            let header = try #require(records.first)
            #expect(header == VariantReport.table(campaign: "", rows: [], control: nil, withoutVariant: 0).template.map(\.0))
            let jsonRows = try #require(chosen.object["variants"] as? [[String: Any]])
            #expect(records.count == jsonRows.count + 1)
            for (record, row) in zip(records.dropFirst(), jsonRows) {
                for (name, cell) in zip(header, record) {
                    switch row[name] {
                    case is NSNull: #expect(cell == "", "\(name)")
                    case let text as String: #expect(cell == text)
                    case let flag as Bool where name == "control": #expect(cell == (flag ? "true" : "false"), "\(name)")
                    // Foundation's JSON parser can read the last digit of a double one unit off; CSV's text is exact.
                    case let number as NSNumber:
                        #expect(abs((Double(cell) ?? .nan) - number.doubleValue) <= 1e-15, "\(name): \(cell) vs \(number)")
                    default: Issue.record("\(name) missing from JSON")
                    }
                }
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func refusalsAndEmptyAnswers(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await Self.seed(client, fixture)
            let unknownControl = try await Self.report(client, fixture, "?control=Z")
            try OutcomeRouteTests.expectFieldError(unknownControl, status: 400, code: "unknown_variant", field: "control")
            let unknownParameter = try await Self.report(client, fixture, "?campaign=spring")
            try OutcomeRouteTests.expectFieldError(unknownParameter, status: 400, code: "unknown_parameter", field: "campaign")
            let twice = try await Self.report(client, fixture, "?control=A&control=B")
            try OutcomeRouteTests.expectFieldError(twice, status: 400, code: "repeated_parameter", field: "control")
            let missing = try await client.send(.get, "/v1/reports/campaigns/autumn/variants", headers: fixture.bearer(.read))
            try OutcomeRouteTests.expectFieldError(missing, status: 404, code: "not_found", field: "campaign")
            // The report's filters apply: another app's pushes only, so no rows and no control (and `control=` empty
            // is the default, as forms send it).
            let filtered = try await Self.report(client, fixture, "?app=com.two&control=")
            #expect(filtered.status == .ok, "\(filtered.text)")
            #expect(filtered.object["control"] is NSNull)
            #expect(filtered.object["pushes_without_variant"] as? Int == 0)
            #expect((filtered.object["variants"] as? [Any])?.isEmpty == true)
            // A campaign whose pushes have no variant at all: no rows, every push counted as left out.
            try await client.json(.put, "/v1/pushes/x1", #"{"campaign":"plain","sent":3}"#, headers: fixture.bearer(.backend))
            let plain = try await client.send(.get, "/v1/reports/campaigns/plain/variants", headers: fixture.bearer(.read))
            #expect(plain.object["pushes_without_variant"] as? Int == 1 && (plain.object["variants"] as? [Any])?.isEmpty == true)
        }
    }

    /// `/v1/reports/variants?campaign=` answers what the path route answers, for names a path cannot carry too
    /// (`..`, which a URL parser climbs), and requires its campaign once.
    @Test(arguments: StoreKind.allCases) func theCampaignNamedInTheQuery(kind: StoreKind) async throws {
        try await withApp(storeKind: kind) { (client: any TestClientProtocol, fixture: TestFixture) async throws in
            try await Self.seed(client, fixture)
            let byPath = try await Self.report(client, fixture, "?control=A")
            let byQuery = try await client.send(.get, "/v1/reports/variants?control=A&campaign=spring", headers: fixture.bearer(.read))
            #expect(byQuery.status == .ok, "\(byQuery.text)")
            #expect(byQuery.text == byPath.text)

            for (id, variant, sent) in [("d1", "A", 4), ("d2", "B", 6)] {
                let body = #"{"campaign":"..","sent":\#(sent),"variant":"\#(variant)"}"#
                let answer = try await client.json(.put, "/v1/pushes/\(id)", body, headers: fixture.bearer(.backend))
                #expect(answer.status.code < 300, "\(answer.text)")
            }
            let receipts = try await client.json(.post, "/v1/receipts", #"[{"push_id":"d1","device_id":"x"},{"push_id":"d2","device_id":"y"}]"#)
            #expect(receipts.status == .ok, "\(receipts.text)")
            let dots = try await client.send(.get, "/v1/reports/variants?campaign=%2E%2E", headers: fixture.bearer(.read))
            #expect(dots.status == .ok, "\(dots.text)")
            #expect(dots.object["campaign"] as? String == "..")
            let rows = try #require(dots.object["variants"] as? [[String: Any]], "\(dots.text)")
            #expect(rows.map { $0["variant"] as? String } == ["A", "B"])
            #expect(rows.map { $0["sent"] as? Int } == [4, 6] && rows.map { $0["displayed"] as? Int } == [1, 1], "\(rows)")

            let missing = try await client.send(.get, "/v1/reports/variants?control=A", headers: fixture.bearer(.read))
            try OutcomeRouteTests.expectFieldError(missing, status: 400, code: "missing_field", field: "campaign")
            let empty = try await client.send(.get, "/v1/reports/variants?campaign=", headers: fixture.bearer(.read))
            try OutcomeRouteTests.expectFieldError(empty, status: 400, code: "missing_field", field: "campaign")
            let twice = try await client.send(.get, "/v1/reports/variants?campaign=spring&campaign=..", headers: fixture.bearer(.read))
            try OutcomeRouteTests.expectFieldError(twice, status: 400, code: "repeated_parameter", field: "campaign")
            let unknown = try await client.send(.get, "/v1/reports/variants?campaign=spring&push_id=a1", headers: fixture.bearer(.read))
            try OutcomeRouteTests.expectFieldError(unknown, status: 400, code: "unknown_parameter", field: "push_id")
            let unregistered = try await client.send(.get, "/v1/reports/variants?campaign=.", headers: fixture.bearer(.read))
            try OutcomeRouteTests.expectFieldError(unregistered, status: 404, code: "not_found", field: "campaign")
            let anonymous = try await client.send(.get, "/v1/reports/variants?campaign=spring")
            #expect(anonymous.status == .unauthorized, "\(anonymous.text)")
        }
    }
}
