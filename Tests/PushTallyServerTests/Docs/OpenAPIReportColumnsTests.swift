import Foundation
import PushTallyCore
import Testing

/// The report rows docs/openapi.yaml describes are the rows the server renders: every JSON key a report writes
/// is a documented property, and every property the document requires is written.
@Suite struct OpenAPIReportColumnsTests {
    /// The `required` list and the property names of `components/schemas/<name>`.
    static func schema(_ name: String) throws -> (required: Set<String>, properties: Set<String>) {
        let text = try OpenAPITests.document()
        let start = try #require(text.range(of: "\n    \(name):\n"), "no schema \(name)")
        let rest = text[start.upperBound...]
        // The schema ends at the next line indented as little as its name.
        let end = rest.firstMatch(of: /\n    \S/)?.range.lowerBound ?? rest.endIndex
        let block = rest[..<end]
        let list = try #require(block.firstMatch(of: /required: \[([^\]]*)\]/), "\(name) has no required list")
        let required = list.1.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let properties = block.matches(of: /\n        ([a-z0-9_]+):/).map { String($0.1) }
        return (Set(required), Set(properties))
    }

    /// The JSON keys of a report's rows (its template row: every column, whatever the data).
    static func keys(_ table: ReportTable) throws -> Set<String> {
        let object = try JSONSerialization.jsonObject(with: JSONRenderer.render(ReportTable(name: table.name, rows: [table.template])))
        let rows = (object as? [String: Any])?[table.name] as? [[String: Any]]
        return Set(try #require(rows?.first).keys)
    }

    @Test(arguments: [
        ("CampaignRow", CampaignsReport.table([], maturity: Maturity(nowMillis: 0))),
        ("PushRow", PushReport.table([], maturity: Maturity(nowMillis: 0))),
        ("AttributionRow", AttributionReport.table(Outcomes())),
        ("VariantRow", VariantReport.table(campaign: "c", rows: [], control: nil, withoutVariant: 0)),
        ("AudienceRow", AudienceReport.table([], grouping: nil)),
        ("AudienceRow", AudienceReport.table([], grouping: .day)),
        ("AudienceRow", AudienceReport.table([], grouping: .appVersion)),
    ])
    func documentedRowsMatchTheRenderedOnes(_ schema: String, _ table: ReportTable) throws {
        let documented = try Self.schema(schema)
        let rendered = try Self.keys(table)
        #expect(rendered.isSubset(of: documented.properties), "\(schema) lacks \(rendered.subtracting(documented.properties).sorted())")
        #expect(documented.required.isSubset(of: rendered), "\(schema) requires \(documented.required.subtracting(rendered).sorted())")
        #expect(documented.required.count > 5)
    }

    /// The variants report's top-level fields (its header) are the documented, required ones.
    @Test func theVariantReportHeaderIsDocumented() throws {
        let documented = try Self.schema("VariantReport")
        let header = VariantReport.table(campaign: "c", rows: [], control: nil, withoutVariant: 0).header.map(\.0)
        #expect(Set(header + ["variants"]) == documented.required)
        #expect(documented.required == documented.properties)
    }

    /// The outcome columns are documented on the per-campaign and per-push rows, required.
    @Test func theOutcomeColumnsAreRequired() throws {
        let outcomes: Set = [
            "influenced_opens", "influenced_open_rate", "direct_opens", "conversions", "conversions_direct",
            "conversions_influenced", "conversion_value",
        ]
        for name in ["CampaignRow", "PushRow"] {
            #expect(outcomes.isSubset(of: try Self.schema(name).required), "\(name)")
        }
    }
}
