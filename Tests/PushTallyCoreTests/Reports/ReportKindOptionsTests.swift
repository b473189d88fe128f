import Testing

@testable import PushTallyCore

/// Each report kind reads its own options from the query: the same parameter name means what its report says
/// it means, a value the kind refuses is refused when the query is read (naming the parameter and what the
/// kind allows), and the request carries the options in the kind's value.
@Suite struct ReportKindOptionsTests {
    private static func refusal(_ query: Substring, _ report: ReportDeclaration) -> FieldError? {
        do {
            _ = try ReportQuery(query, report: report)
            return nil
        } catch {
            return error
        }
    }

    @Test func byIsEachReportsOwn() throws {
        #expect(try ReportQuery("by=app", report: .audience).request(.audience).subject == .audience(.app))
        #expect(try ReportQuery("by=platform", report: .campaigns).request(.campaigns).subject == .campaigns(by: .platform))
        let campaigns = try #require(Self.refusal("by=app", .campaigns))
        #expect(campaigns.field == "by" && campaigns.message.contains("priority, push_type, platform"), "\(campaigns.message)")
        let audience = try #require(Self.refusal("by=priority", .audience))
        #expect(audience.field == "by" && audience.message.contains("day, app, app_version"), "\(audience.message)")
    }

    @Test func optionsReachTheKindAndGoBackToTheServer() throws {
        let query = try ReportQuery("control=B&bom=1", report: .variants)
        #expect(query.option("control") == "B" && query.bom)
        let request = try query.request(.variants, pathValue: "spring")
        #expect(request.subject == .variants("spring", control: "B"))
        #expect(request.httpPath().query.map { "\($0.name)=\($0.value ?? "")" } == ["control=B"])
        // A filter parameter is the filter's, never an option of the kind.
        let pushes = try ReportQuery("campaign=c&orphan=false", report: .pushes)
        #expect(pushes.filter.campaign == "c" && pushes.option("campaign") == nil)
        #expect(try pushes.request(.pushes).subject == .pushes(orphan: false))
    }

    @Test func aKindsDefaultsHoldWhenItsOptionsAreAbsent() throws {
        #expect(try ReportQuery(nil, report: .versions).request(.versions).subject == .versions(.appVersion))
        let series = try #require(try ReportQuery(nil, report: .timeseries).request(.timeseries).subject.kind as? TimeseriesReportKind)
        #expect(series.options.width == .day && series.options.timeZoneName == "UTC")
        #expect(try ReportQuery(nil, report: .campaigns).request(.campaigns).subject == .campaigns)
    }
}
