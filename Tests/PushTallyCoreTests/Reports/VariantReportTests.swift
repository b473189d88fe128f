import Testing

@testable import PushTallyCore

/// The variants report's grouping, control and null rules (its statistics are held to statsmodels in
/// PushTallyServerTests' VariantStatisticsTests).
@Suite struct VariantReportTests {
    static func push(_ id: String, variant: String?, sent: Int64, displayed: Int64, opened: Int64, retries: Int64 = 0) -> PushFigures {
        var funnel = Funnel()
        funnel.pushes = 1
        funnel.sent = sent
        funnel.displays = EventCount(total: displayed + retries, duplicates: retries)
        funnel.actions[StandardAction.open] = EventCount(total: opened + retries, duplicates: retries)
        var push = PushFigures(
            pushID: id, campaign: "spring", title: nil, sentAtMillis: 0, app: nil, environment: nil, firstEventMillis: nil,
            funnel: funnel)
        push.attributes.variant = variant
        return push
    }

    static func cell(_ table: ReportTable, _ variant: String, _ column: String) -> ReportValue? {
        table.rows.first { $0.contains { $0.0 == "variant" && $0.1 == .text(variant) } }?.first { $0.0 == column }?.1
    }

    /// Pushes pool by variant (unique displays and opens, retries left out), sorted by name; pushes without a
    /// variant make no row and are counted.
    @Test func pushesPoolByVariant() throws {
        let (rows, without) = try VariantReport.rows([
            Self.push("p1", variant: "B", sent: 10, displayed: 6, opened: 2, retries: 3),
            Self.push("p2", variant: "A", sent: 5, displayed: 4, opened: 1),
            Self.push("p3", variant: "B", sent: 20, displayed: 9, opened: 4),
            Self.push("p4", variant: nil, sent: 7, displayed: 7, opened: 7),
        ])
        #expect(rows == [
            VariantRow(variant: "A", pushes: 1, sent: 5, displayed: 4, opened: 1),
            VariantRow(variant: "B", pushes: 2, sent: 30, displayed: 15, opened: 6),
        ])
        #expect(without == 1)
        #expect(rows[1].displayRate == 0.5 && rows[1].openRate == 0.4)
    }

    @Test func theControlIsAskedForOrControlOrTheFirstByName() throws {
        let rows = ["B", "control", "A"].map { VariantRow(variant: $0) }
        #expect(try VariantReport.control(nil, among: rows) == "control")
        #expect(try VariantReport.control(nil, among: rows.filter { $0.variant != "control" }) == "B")
        #expect(try VariantReport.control("A", among: rows) == "A")
        #expect(try VariantReport.control(nil, among: []) == nil)
        for rows in [rows, []] {
            let error = #expect(throws: FieldError.self) { try VariantReport.control("Z", among: rows) }
            #expect(error?.field == "control" && error?.code == "unknown_variant")
            #expect(error?.message.contains("Z") == true)
        }
    }

    /// Lift and p-value compare each row with the control; the control's own row has neither.
    @Test func rowsCompareWithTheControl() {
        let rows = [
            VariantRow(variant: "A", pushes: 1, sent: 100, displayed: 50, opened: 10),
            VariantRow(variant: "B", pushes: 1, sent: 100, displayed: 60, opened: 30),
        ]
        let table = VariantReport.table(campaign: "spring", rows: rows, control: "A", withoutVariant: 2)
        #expect(Self.cell(table, "A", "control") == .flag(true) && Self.cell(table, "B", "control") == .flag(false))
        for column in ["display_rate_lift", "display_rate_p_value", "open_rate_lift", "open_rate_p_value"] {
            #expect(Self.cell(table, "A", column) == .rate(nil), "\(column)")
        }
        guard case .rate(let lift?) = Self.cell(table, "B", "display_rate_lift"),
            case .rate(let openLift?) = Self.cell(table, "B", "open_rate_lift")
        else { Issue.record("no lift"); return }
        #expect(abs(lift - 0.2) < 1e-12)
        #expect(abs(openLift - 1.5) < 1e-12)
        #expect(Self.cell(table, "B", "display_rate_p_value")
            == .rate(ProportionStatistics.pooledZTestPValue(60, of: 100, against: 50, of: 100)))
        #expect(Self.cell(table, "B", "open_rate_p_value")
            == .rate(ProportionStatistics.pooledZTestPValue(30, of: 60, against: 10, of: 50)))
        #expect(table.header.map(\.0) == ["campaign", "control", "pushes_without_variant"])
        #expect(table.header.map(\.1) == [.text("spring"), .text("A"), .integer(2)])
        #expect(table.rows.allSatisfy { $0.map(\.0) == table.template.map(\.0) })
    }

    /// Keyless retries can put displays above sends: the rate shows as it is (above 1), but it is no proportion,
    /// so its interval and test are null, never NaN; and a control that sent nothing gives no lift or p-value.
    @Test func displaysAboveSendsAndAnIdleControlGiveNulls() {
        let rows = [
            VariantRow(variant: "A", pushes: 1, sent: 0, displayed: 0, opened: 0),
            VariantRow(variant: "B", pushes: 1, sent: 4, displayed: 6, opened: 2),
            VariantRow(variant: "C", pushes: 1, sent: 10, displayed: 5, opened: 1),
        ]
        let table = VariantReport.table(campaign: "c", rows: rows, control: "A", withoutVariant: 0)
        #expect(Self.cell(table, "B", "display_rate") == .rate(1.5))
        for column in ["display_rate_ci_low", "display_rate_ci_high", "display_rate_lift", "display_rate_p_value"] {
            #expect(Self.cell(table, "B", column) == .rate(nil), "\(column)")
        }
        // C is a proportion: it has its interval, but nothing to compare with in a control that sent nothing.
        #expect(Self.cell(table, "C", "display_rate_ci_low") == .rate(ProportionStatistics.wilson(5, of: 10)?.low))
        for column in ["display_rate_lift", "display_rate_p_value", "open_rate_lift", "open_rate_p_value"] {
            #expect(Self.cell(table, "C", column) == .rate(nil), "\(column)")
        }
        #expect(Self.cell(table, "A", "display_rate") == .rate(nil))
        #expect(Self.cell(table, "B", "open_rate") == .rate(2.0 / 6))
        #expect(Self.cell(table, "B", "open_rate_ci_low") != .rate(nil))
        // Against B (displays above sends) C's display test is null too; its open test is not.
        let againstB = VariantReport.table(campaign: "c", rows: rows, control: "B", withoutVariant: 0)
        #expect(Self.cell(againstB, "C", "display_rate_p_value") == .rate(nil))
        #expect(Self.cell(againstB, "C", "open_rate_p_value") != .rate(nil))
        #expect(ProportionStatistics.pooledZTestPValue(6, of: 4, against: 5, of: 10) == nil)
        #expect(ProportionStatistics.wilson(0, of: 0) == nil)
        #expect(ProportionStatistics.lift(0.5, over: 0) == nil)
    }

    /// At a terminal the key columns read as an experiment: p-values as numbers, not percents.
    @Test func aTerminalTableShowsLiftAndPValues() {
        let rows = [
            VariantRow(variant: "A", pushes: 1, sent: 1000, displayed: 500, opened: 100),
            VariantRow(variant: "B", pushes: 1, sent: 1000, displayed: 600, opened: 110),
        ]
        let drawn = HumanTableRenderer.render(
            VariantReport.table(campaign: "c", rows: rows, control: "A", withoutVariant: 0), style: HumanTableStyle(width: 200))
        let lines = drawn.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
        #expect(lines[0] == "variant control sent displayed display rate lift p opened open rate open lift open p", "\(drawn)")
        #expect(lines[1] == "A yes 1,000 500 50.0% – – 100 20.0% – –", "\(drawn)")
        #expect(lines[2] == "B no 1,000 600 60.0% 20.0% <0.001 110 18.3% -8.3% 0.484", "\(drawn)")
        #expect(HumanTableRenderer.cell(.rate(0.0431), column: "open_rate_p_value") == "0.043")
    }
}
