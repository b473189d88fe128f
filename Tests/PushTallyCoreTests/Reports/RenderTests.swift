import Foundation
import Testing

@testable import PushTallyCore

@Suite struct RenderTests {
    func sampleTable() -> ReportTable {
        var funnel = Funnel()
        funnel.pushes = 2
        funnel.sent = 4
        funnel.sentTimed = 4
        funnel.displays = EventCount(total: 3, duplicates: 1)
        funnel.actions = ["open": EventCount(total: 1), "view": EventCount(total: 2)]
        var empty = Funnel()
        empty.pushes = 1
        empty.actions = ["favorite": EventCount(total: 1)]
        return CampaignsReport.table([
            CampaignRow(campaign: "新年, \"sale\"", funnel: funnel, pushIDs: ["a", "b"]),
            CampaignRow(campaign: "=HYPERLINK(\"http://evil\")", funnel: empty, pushIDs: ["c"]),
        ], maturity: Maturity(nowMillis: 0))
    }

    @Test func csvFollowsRFC4180WithActionsAfterFixedColumns() {
        let csv = CSVRenderer.render(sampleTable())
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines[0] == """
            campaign,pushes,sent,failed,displayed,duplicates,displayed_unique,display_rate,opened,opened_unique,\
            open_rate,dismissed,targeted,failed_unregistered,failed_bad_device_token,failed_device_token_not_for_topic,\
            failed_too_many_requests,failed_other,unexplained_loss,time_to_display_p50,time_to_display_p90,\
            time_to_display_p99,display_rate_1h,display_rate_24h,display_rate_7d,late,final_at,final,orphan,\
            influenced_opens,influenced_open_rate,direct_opens,conversions,conversions_direct,conversions_influenced,\
            superseded_loss,superseded_pushes,media_attached,media_failed,media_timed_out,rich_rate,extension_ms_p50,\
            extension_ms_p90,device_delivered,displayed_of_delivered,fcm_accepted,fcm_failed,action:favorite,action:view
            """)
        #expect(lines[1] == "\"新年, \"\"sale\"\"\",2,4,0,3,1,2,0.5,1,1,0.5,0,0,0,0,0,0,0,2,,,,0.0,0.0,0.0,0,,false,false,0,0.0,0,0,0,0,0,0,0,0,0,,,,0,,0,0,0,2")
        // A formula from user data is neutralised; an empty rate is an empty cell, not NaN.
        #expect(lines[2] == "\"'=HYPERLINK(\"\"http://evil\"\")\",1,0,0,0,0,0,,0,0,,0,0,0,0,0,0,0,0,,,,,,,0,,false,false,0,,0,0,0,0,0,0,0,0,0,,,,0,,0,0,1,0")
        #expect(lines[3] == "")
        #expect(!csv.contains("\n") || csv.replacingOccurrences(of: "\r\n", with: "").contains("\n") == false)
    }

    @Test func bomIsOptIn() {
        #expect(!CSVRenderer.render(sampleTable()).hasPrefix("\u{FEFF}"))
        #expect(Array(CSVRenderer.render(sampleTable(), bom: true).utf8.prefix(3)) == [0xEF, 0xBB, 0xBF])
    }

    @Test func injectionGuardCoversEveryTrigger() {
        for text in ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"] {
            #expect(CSVRenderer.neutralised(text) == "'" + text)
        }
        #expect(CSVRenderer.neutralised("plain") == "plain")
        #expect(CSVRenderer.neutralised("") == "")
    }

    /// The terminal table is drawn from the rows, not from the CSV: it shows what the user sent, with neither
    /// the spreadsheet guard nor CSV quoting.
    @Test func theTerminalTableShowsUserTextAsSent() {
        let texts = ["=1+1", "+1", "-1", "@SUM(A1)", "plain", "'quoted", "a, \"b\""]
        let table = ReportTable(name: "t", rows: texts.map { [("campaign", .text($0)), ("display_rate", .rate(0.25))] })
        let lines = HumanTableRenderer.render(table, style: HumanTableStyle()).split(separator: "\n").dropFirst()
        #expect(lines.map { $0.split(separator: "  ").first.map(String.init) } == texts)
        #expect(lines.allSatisfy { $0.hasSuffix("25.0%") })
        #expect(CSVRenderer.render(table).contains("\"'=1+1\"") == false && CSVRenderer.render(table).contains("'=1+1,"))
    }

    @Test func jsonHasNullRatesAndActionObjects() throws {
        let data = JSONRenderer.render(sampleTable())
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let rows = try #require(object["campaigns"] as? [[String: Any]])
        #expect(rows[0]["display_rate"] as? Double == 0.5)
        #expect(rows[0]["actions"] as? [String: Int] == ["view": 2])
        #expect(rows[1]["display_rate"] is NSNull)
        #expect(rows[1]["campaign"] as? String == "=HYPERLINK(\"http://evil\")")
    }

    @Test func humanTableAlignsWideCharactersAndFormatsForPeople() {
        let table = ReportTable(name: "t", rows: [
            [("campaign", .text("新年")), ("sent", .integer(1_500)), ("display_rate", .rate(nil)), ("time_to_display_p50", .seconds(150))],
            [("campaign", .text("abcdefghi")), ("sent", .integer(22)), ("display_rate", .rate(1.0 / 3)), ("time_to_display_p50", .seconds(9))],
        ])
        #expect(HumanTableRenderer.render(table, style: HumanTableStyle()) == """
            campaign    sent  display rate  p50 to display
            新年       1,500             –           3 min
            abcdefghi     22         33.3%             9 s

            """)
        // Cut to the width by display columns, CJK counting two, with an ellipsis.
        #expect(HumanTableRenderer.truncated("新品上架大促销", to: 7) == "新品上…")
        #expect(HumanTableRenderer.grouped(-1_234_567) == "-1,234,567")
    }
}
