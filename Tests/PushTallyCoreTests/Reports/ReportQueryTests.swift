import Foundation
import Testing

@testable import PushTallyCore

/// Report parameters as browsers, Python and curl send them, read strictly.
@Suite struct ReportQueryTests {
    static let hardNames = ["Abandoned cart", "a+b & c=d", "50% off #1", "新品 上架", "🎉 launch"]

    @Test(arguments: hardNames)
    func namesRoundTripThroughTheBrowsersEncoding(name: String) throws {
        let encoded = FormBody.encode([("campaign", name), ("format", "csv")])
        #expect(!encoded.contains(" "))
        let query = try ReportQuery(encoded[...], report: .timeseries)
        #expect(query.filter.campaign == name && query.format == .csv)
        // What Python's urlencode and URLSearchParams write for the first two names.
        #expect(try ReportQuery("campaign=Abandoned+cart", report: .campaigns).filter.campaign == "Abandoned cart")
        #expect(try ReportQuery("campaign=a%2Bb+%26+c%3Dd", report: .campaigns).filter.campaign == "a+b & c=d")
        // curl -G --data-urlencode writes a space as %20.
        #expect(try ReportQuery("campaign=%E6%96%B0%E5%93%81%20%E4%B8%8A%E6%9E%B6", report: .versions).filter.campaign == "新品 上架")
    }

    @Test func unknownValuesNameTheParameterAndListWhatIsAllowed() throws {
        let cases: [(String, ReportDeclaration, String, String)] = [
            ("environment=prod", .campaigns, "environment", "production, sandbox"),
            ("bucket=week", .timeseries, "bucket", "hour, day"),
            ("format=xml", .push, "format", "json, csv"),
            ("dimension=sdk", .versions, "dimension", "app_version, os_version"),
            ("orphan=yes", .pushes, "orphan", "true, false"),
            ("bom=2", .campaigns, "bom", "1, 0, true, false"),
        ]
        for (query, report, field, allowed) in cases {
            #expect {
                try ReportQuery(query[...], report: report)
            } throws: { error in
                let error = error as? FieldError
                return error?.code == "bad_value" && error?.field == field && error?.message.contains(allowed) == true
            }
        }
        #expect(throws: FieldError.self) { try ReportQuery("tz=Nowhere/Land", report: .timeseries) }
        // Offsets are no IANA names, and IANA's own Etc/GMT+8 is UTC-8: the bare spelling would read the other way.
        for offset in ["GMT%2B8", "UTC-3", "gmt%2B08:00"] {
            #expect(throws: FieldError.self, "\(offset)") { try ReportQuery("tz=\(offset)"[...], report: .timeseries) }
        }
        #expect(try TimeseriesOptions.zone(named: "Etc/GMT+8").secondsFromGMT() == -8 * 3600)
        #expect(throws: FieldError.self) { try ReportQuery("from=whenever", report: .campaigns) }
    }

    @Test func aParameterTheReportDoesNotTakeOrGivenTwiceIsRefused() {
        #expect {
            try ReportQuery("campaign=x&bucket=hour", report: .campaigns)
        } throws: { error in
            let error = error as? FieldError
            return error?.code == "unknown_parameter" && error?.field == "bucket" && error?.message.contains("campaign") == true
        }
        #expect {
            try ReportQuery("campaign=a&campaign=b", report: .pushes)
        } throws: { ($0 as? FieldError)?.code == "repeated_parameter" && ($0 as? FieldError)?.field == "campaign" }
        // A report addressed by path takes its subject from the path, not the query.
        #expect(throws: FieldError.self) { try ReportQuery("campaign=x", report: .campaign) }
        // A report not kept by platform refuses the filter as such, naming the reports that take it.
        for report in [ReportDeclaration.versions, .attribution, .audience, .variants] {
            #expect {
                try ReportQuery("platform=web", report: report)
            } throws: { error in
                let error = error as? FieldError
                return error?.code == "not_kept_by_platform" && error?.field == "platform"
                    && error?.message.contains("campaigns, campaign, push, pushes, timeseries") == true
            }
        }
        for report in [ReportDeclaration.campaigns, .campaign, .push, .pushes, .timeseries] {
            #expect((try? ReportQuery("platform=web", report: report))?.filter.platform == "web")
        }
        #expect(throws: FieldError.self) { try ReportQuery("campaign=%ZZ", report: .campaigns) }
    }

    @Test func emptyValuesAreAbsentAndTheRestDrivesTheRequest() throws {
        let query = try ReportQuery("campaign=&environment=&bucket=hour&tz=Asia%2FKolkata&push_id=p1&FORMAT=csv".replacingOccurrences(of: "FORMAT", with: "format")[...], report: .timeseries)
        #expect(query.filter == ReportFilter(pushID: "p1"))
        #expect(query.format == .csv && query.option("bucket") == "hour" && query.timeZone == "Asia/Kolkata")
        let request = try query.request(.timeseries)
        let options = try #require((request.subject.kind as? TimeseriesReportKind)?.options, "not a time series")
        #expect(options.width == .hour && options.timeZoneName == "Asia/Kolkata")
        #expect(try ReportQuery("format=CSV", report: .campaigns).format == .csv)
        #expect(try ReportQuery("orphan=true", report: .pushes).request(.pushes).subject == .pushes(orphan: true))
        #expect(try ReportQuery(nil, report: .push).request(.push, pathValue: "p 1").subject == .push("p 1"))
    }
}
