import PushTallyCore
import PushTallyTestSupport
import Testing

/// The superseding rule itself (``Superseding``), free of any store: which later push replaces which.
@Suite struct SupersedingTests {
    static let minute: Int64 = 60_000

    func push(
        _ id: String, at minute: Int64, app: String = "com.example", collapse: String = "news", expiresAt: Int64? = nil
    ) -> CollapsePush {
        CollapsePush(
            pushID: id, app: app, collapseID: collapse, sentAtMillis: minute * Self.minute,
            expirationMillis: expiresAt.map { $0 * Self.minute })
    }

    @Test func aLaterPushOfTheSameAppAndCollapseIDSupersedesOneWithoutExpiration() {
        let result = Superseding.supersessions([push("b", at: 5), push("a", at: 0)])
        #expect(result == ["a": Supersession(supersededBy: "b", afterMillis: 5 * Self.minute)])
    }

    @Test func anotherAppOrCollapseIDDoesNotSupersede() {
        let result = Superseding.supersessions([
            push("a", at: 0), push("other-app", at: 1, app: "com.other"), push("other-id", at: 2, collapse: "sports"),
        ])
        #expect(result.isEmpty)
    }

    @Test func aPushAlreadyExpiredIsNotSupersededAndOneStillStoredIs() {
        // a expires at minute 10: b at 10 comes too late (not before expiry); c expires at 30, d at 29 is in time.
        let result = Superseding.supersessions([
            push("a", at: 0, expiresAt: 10), push("b", at: 10, collapse: "x"),
            push("late", at: 10), push("c", at: 20, collapse: "y", expiresAt: 30), push("d", at: 29, collapse: "y"),
        ])
        #expect(result["a"] == nil)
        #expect(result["c"] == Supersession(supersededBy: "d", afterMillis: 9 * Self.minute))
    }

    @Test func expirationZeroIsNeverSuperseded() {
        let result = Superseding.supersessions([push("a", at: 0, expiresAt: 0), push("b", at: 1)])
        #expect(result["a"] == nil)
    }

    @Test func theEarliestOfSeveralLaterPushesWins() {
        let result = Superseding.supersessions([push("d", at: 9), push("a", at: 0), push("c", at: 3), push("b", at: 7)])
        #expect(result["a"] == Supersession(supersededBy: "c", afterMillis: 3 * Self.minute))
        #expect(result["c"]?.supersededBy == "b")
        #expect(result["b"]?.supersededBy == "d")
        #expect(result["d"] == nil)
    }

    /// Same-millisecond pushes cannot be ordered at APNs: neither supersedes the other, and a later push
    /// supersedes both; among several later pushes in one millisecond the smallest id is chosen.
    @Test func tiesNeverSupersedeAndTheSmallestIDBreaksThem() {
        let result = Superseding.supersessions([
            push("a2", at: 0), push("a1", at: 0), push("z", at: 4), push("y", at: 4),
        ])
        #expect(result["a1"]?.supersededBy == "y")
        #expect(result["a2"]?.supersededBy == "y")
        #expect(result["y"] == nil && result["z"] == nil)
    }

    @Test func onlyTheUnshownSendsOfSupersededPushesAreExplainedLoss() {
        var shown = Funnel()
        shown.sent = 10
        shown.displays = EventCount(total: 4)
        var over = Funnel()
        over.sent = 2
        over.displays = EventCount(total: 5)
        let figures = [
            PushFigures(pushID: "a", firstEventMillis: nil, funnel: shown),
            PushFigures(pushID: "b", firstEventMillis: nil, funnel: over),
            PushFigures(pushID: "c", firstEventMillis: nil, funnel: shown),
        ]
        let marked = Superseding.apply(
            ["a": Supersession(supersededBy: "c", afterMillis: 1), "b": Supersession(supersededBy: "c", afterMillis: 1)],
            to: figures)
        #expect(marked[0].funnel.supersededLoss == 6 && marked[0].funnel.unexplainedLoss == 0)
        // More displays than sends: nothing to explain, and unexplained_loss keeps its negative reading.
        #expect(marked[1].funnel.supersededLoss == 0 && marked[1].funnel.unexplainedLoss == -3)
        #expect(marked[2].supersession == nil && marked[2].funnel.unexplainedLoss == 6)
        var total = Funnel()
        for push in marked { total.add(push.funnel) }
        #expect((total.supersededPushes, total.supersededLoss, total.unexplainedLoss) == (2, 6, 3))
    }

    @Test func byIsAStrictEnumerationOfTheCampaignsReport() throws {
        let query = try ReportQuery("by=push_type", report: .campaigns)
        #expect(try query.request(.campaigns).subject == .campaigns(by: .pushType))
        #expect(try ReportQuery("by=", report: .campaigns).request(.campaigns).subject == .campaigns)
        for bad in ["by=banner", "by=Priority", "by=variant"] {
            #expect(throws: FieldError.self) { try ReportQuery(bad[...], report: .campaigns) }
            do {
                _ = try ReportQuery(bad[...], report: .campaigns)
            } catch {
                #expect(error.field == "by" && error.message.contains("priority, push_type"), "\(error.message)")
            }
        }
        // Only the campaigns report takes it.
        do {
            _ = try ReportQuery("by=priority", report: .pushes)
            Issue.record("pushes took by")
        } catch {
            #expect(error.field == "by" && error.code == "unknown_parameter")
        }
        let request = ReportRequest(.campaigns(by: .priority))
        #expect(request.httpPath().query.contains { $0.name == "by" && $0.value == "priority" })
    }

    @Test func campaignRowsSplitByAttributeWithAbsentValuesLastAndTheColumnAfterCampaign() throws {
        func figures(_ id: String, _ campaign: String?, priority: Int?, sent: Int64) -> PushFigures {
            var funnel = Funnel()
            funnel.sent = sent
            funnel.pushes = 1
            var push = PushFigures(
                pushID: id, campaign: campaign, title: nil, sentAtMillis: nil, app: nil, environment: nil,
                firstEventMillis: nil, funnel: funnel)
            push.attributes.priority = priority
            return push
        }
        let rows = try CampaignsReport.rows(
            [
                figures("1", "b", priority: 10, sent: 1), figures("2", "a", priority: nil, sent: 2),
                figures("3", "a", priority: 10, sent: 4), figures("4", "a", priority: 5, sent: 8),
                figures("5", "a", priority: 10, sent: 16), figures("6", nil, priority: nil, sent: 0),
            ], by: .priority)
        let table = CampaignsReport.table(rows, maturity: Maturity(nowMillis: 0), by: .priority)
        let cells = table.rows.map { row in
            (row[0].1, row[1].0, row[1].1, row.first { $0.0 == "sent" }!.1)
        }
        #expect(cells.map(\.1) == Array(repeating: "priority", count: 5))
        #expect(cells.map(\.0) == [.text("a"), .text("a"), .text("a"), .text("b"), .text(nil)])
        #expect(cells.map(\.2) == [.optionalInteger(5), .optionalInteger(10), .optionalInteger(nil), .optionalInteger(10), .optionalInteger(nil)])
        #expect(cells.map(\.3) == [.integer(8), .integer(20), .integer(2), .integer(1), .integer(0)])
        #expect(table.template[1].0 == "priority")
        #expect(CampaignsReport.table([], maturity: Maturity(nowMillis: 0), by: .pushType).template[1].0 == "push_type")
        #expect(CampaignsReport.table([], maturity: Maturity(nowMillis: 0)).template[1].0 == "pushes")
    }
}
