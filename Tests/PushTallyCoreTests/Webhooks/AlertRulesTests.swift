import Foundation
import Testing

@testable import PushTallyCore

@Suite struct AlertRuleParseTests {
    private func parse(_ json: String) throws(FieldError) -> AlertRule {
        try AlertRule.parse(try JSONValue.parse(Data(json.utf8)))
    }

    @Test func parsesARuleWithDefaults() throws {
        let rule = try parse(#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":100}"#)
        #expect(rule == AlertRule(name: "r", kind: .receiptsStopped, windowMillis: 3_600_000, threshold: 0.2, minSent: 100, graceMillis: 300_000))
        let scoped = try parse(
            #"{"name":"v","kind":"version_not_posting","window":"7d","threshold":0.5,"min_sent":0,"grace":"30m","campaign":"c","app":"a"}"#)
        #expect(scoped.graceMillis == 1_800_000 && scoped.campaign == "c" && scoped.app == "a" && scoped.kind == .versionNotPosting)
        // Above 1 is a ratio other kinds may take.
        #expect(try parse(#"{"name":"d","kind":"display_rate_drop","window":"1h","threshold":1.5,"min_sent":1}"#).threshold == 1.5)
    }

    @Test(arguments: [
        (#"[1]"#, "malformed_json", nil),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":1,"severity":"high"}"#, "unknown_field", "severity"),
        (#"{"kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":1}"#, "missing_field", "name"),
        (#"{"name":"r","window":"1h","threshold":0.2,"min_sent":1}"#, "missing_field", "kind"),
        (#"{"name":"r","kind":"cpu_high","window":"1h","threshold":0.2,"min_sent":1}"#, "bad_value", "kind"),
        (#"{"name":"r","kind":"receipts_stopped","threshold":0.2,"min_sent":1}"#, "missing_field", "window"),
        (#"{"name":"r","kind":"receipts_stopped","window":3600,"threshold":0.2,"min_sent":1}"#, "bad_type", "window"),
        (#"{"name":"r","kind":"receipts_stopped","window":"an hour","threshold":0.2,"min_sent":1}"#, "bad_value", "window"),
        (#"{"name":"r","kind":"receipts_stopped","window":"59s","threshold":0.2,"min_sent":1}"#, "bad_value", "window"),
        (#"{"name":"r","kind":"receipts_stopped","window":"91d","threshold":0.2,"min_sent":1}"#, "bad_value", "window"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","grace":"1h","threshold":0.2,"min_sent":1}"#, "bad_value", "grace"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","grace":5,"threshold":0.2,"min_sent":1}"#, "bad_type", "grace"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","min_sent":1}"#, "missing_field", "threshold"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":"0.2","min_sent":1}"#, "bad_type", "threshold"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":0,"min_sent":1}"#, "bad_value", "threshold"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":1.5,"min_sent":1}"#, "bad_value", "threshold"),
        (#"{"name":"r","kind":"display_rate_drop","window":"1h","threshold":101,"min_sent":1}"#, "bad_value", "threshold"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":0.2}"#, "missing_field", "min_sent"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":1.5}"#, "bad_value", "min_sent"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":-1}"#, "bad_value", "min_sent"),
        (#"{"name":"r","kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":"5"}"#, "bad_value", "min_sent"),
        (#"{"name":"","kind":"receipts_stopped","window":"1h","threshold":0.2,"min_sent":1}"#, "missing_field", "name"),
    ] as [(String, String, String?)])
    func namesTheFieldAndCodeOfEachError(json: String, code: String, field: String?) {
        do {
            _ = try parse(json)
            Issue.record("\(json) parsed")
        } catch {
            #expect(error.code == code)
            #expect(error.field == field)
        }
    }
}

@Suite struct AlertThresholdTests {
    /// Each kind's refusal names its own range, never another kind's.
    @Test(arguments: AlertKind.allCases)
    func eachKindsThresholdRefusalNamesItsOwnRange(kind: AlertKind) throws {
        let maximum = kind == .receiptsStopped ? "1" : "100"
        for threshold in ["1e300", "0", "-0.5", "101"] {
            let json = #"{"name":"r","kind":"\#(kind.rawValue)","window":"1h","threshold":\#(threshold),"min_sent":1}"#
            #expect {
                _ = try AlertRule.parse(try JSONValue.parse(Data(json.utf8)))
            } throws: { error in
                let message = (error as? FieldError)?.message ?? ""
                return (error as? FieldError)?.field == "threshold" && message.hasPrefix("threshold for \(kind.rawValue) is")
                    && message.contains("above 0 and at most \(maximum) ")
            }
        }
        let highest = #"{"name":"r","kind":"\#(kind.rawValue)","window":"1h","threshold":\#(maximum),"min_sent":1}"#
        #expect(try AlertRule.parse(try JSONValue.parse(Data(highest.utf8))).threshold == kind.maximumThreshold)
    }
}

@Suite struct AlertReadingTests {
    let rule = AlertRule(name: "r", kind: .receiptsStopped, windowMillis: 3_600_000, threshold: 0.2, minSent: 0)

    @Test func anUnchangedStateUpdatesTheValueWithoutATransition() {
        let alert = Alert(id: "al_1", rule: rule, createdAtMillis: 0, sinceMillis: 100)
        let (next, transition) = AlertReading(firing: false, value: 0.7, detail: "x").applied(to: alert, at: 5_000)
        #expect(transition == nil)
        #expect(next.state == .ok && next.sinceMillis == 100)
        #expect(next.value == 0.7 && next.detail == "x" && next.evaluatedAtMillis == 5_000)
    }

    @Test func firingAndResolvingAreTransitions() throws {
        let alert = Alert(id: "al_1", rule: rule, createdAtMillis: 0, sinceMillis: 100)
        let (firing, fired) = AlertReading(firing: true, value: 0.05).applied(to: alert, at: 5_000)
        #expect(firing.state == .firing && firing.sinceMillis == 5_000)
        #expect(fired == AlertTransition(alertID: "al_1", state: .firing, atMillis: 5_000, value: 0.05, detail: nil))
        let (still, none) = AlertReading(firing: true, value: 0.01).applied(to: firing, at: 6_000)
        #expect(none == nil && still.sinceMillis == 5_000 && still.value == 0.01)
        let (resolved, back) = AlertReading(firing: false, value: 0.9).applied(to: still, at: 7_000)
        #expect(resolved.state == .ok && resolved.sinceMillis == 7_000)
        #expect(back?.state == .ok && back?.atMillis == 7_000 && back?.value == 0.9)
    }
}

/// Report figures as a store would give them, with the filters the evaluator asked for.
final class FakeReportReader: ReportReader, @unchecked Sendable {
    let configuration = StoreConfiguration()
    let pushes: [PushFigures]
    let versions: [VersionCount]
    private let lock = NSLock()
    private var asked: [ReportFilter] = []

    init(pushes: [PushFigures] = [], versions: [VersionCount] = []) {
        self.pushes = pushes
        self.versions = versions
    }

    var filters: [ReportFilter] {
        lock.lock()
        defer { lock.unlock() }
        return asked
    }

    private func record(_ filter: ReportFilter) {
        lock.lock()
        asked.append(filter)
        lock.unlock()
    }

    func readPushRows<Sink: PushRowSink & Sendable>(_ filter: ReportFilter, into sink: Sink) async throws -> Sink {
        record(filter)
        var sink = sink
        for push in pushes { push.feedRegistrationSendsAndDisplays(into: &sink) }
        return sink
    }

    func bucketCounts(_ filter: ReportFilter) async throws -> [BucketCount] { [] }
    func campaignNames(after: String?, limit: Int) async throws -> [String] { [] }
    func orphanPageEnd(after: String?, rows: Int) async throws -> String? { nil }
    func collapsePeers(_ filter: ReportFilter) async throws -> [CollapsePush] { [] }

    func versionCounts(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [VersionCount] {
        record(filter)
        return dimension == .appVersion ? versions : []
    }
    func versionMedia(_ filter: ReportFilter, dimension: VersionDimension) async throws -> [String: MediaOutcomes] { [:] }

    func outcomeTotals(fromMillis: Int64?, toMillis: Int64?) async throws -> Outcomes { Outcomes() }
    func audienceCounts(_ query: AudienceQuery) async throws -> [AudienceCount] { [] }
    func deviceStateCounts(_ query: DeviceStateQuery) async throws -> [DeviceStateCount] { [] }
}

@Suite struct AlertEvaluatorTests {
    let now: Int64 = 1_800_000_000_000
    let hour: Int64 = 3_600_000

    func push(_ id: String, sentAt: Int64, sent: Int64, displayed: Int64, campaign: String = "c") -> PushFigures {
        var funnel = Funnel()
        funnel.sent = sent
        funnel.displays = EventCount(total: displayed)
        return PushFigures(
            pushID: id, campaign: campaign, title: nil, sentAtMillis: sentAt, app: "shop", environment: nil, firstEventMillis: nil,
            funnel: funnel)
    }

    func stopped(minSent: Int64 = 50, grace: Int64 = 300_000) -> AlertRule {
        AlertRule(name: "s", kind: .receiptsStopped, windowMillis: hour, threshold: 0.2, minSent: minSent, graceMillis: grace, campaign: "c", app: "shop")
    }

    @Test func receiptsStoppedFiresBelowTheThreshold() async throws {
        let reader = FakeReportReader(pushes: [push("p1", sentAt: now - hour / 2, sent: 100, displayed: 5)])
        let reading = try await AlertEvaluator.evaluate(stopped(), reader: reader, now: now)
        #expect(reading.firing && reading.value == 0.05)
        // The window ends `grace` before now and spans `window`; the rule's scope is passed on.
        #expect(reader.filters == [ReportFilter(fromMillis: now - 300_000 - hour, toMillis: now - 300_000, campaign: "c", app: "shop")])
        let healthy = FakeReportReader(pushes: [push("p1", sentAt: now - hour / 2, sent: 100, displayed: 60)])
        let ok = try await AlertEvaluator.evaluate(stopped(), reader: healthy, now: now)
        #expect(!ok.firing && ok.value == 0.6)
    }

    @Test func receiptsStoppedWaitsForMinSent() async throws {
        let reader = FakeReportReader(pushes: [push("p1", sentAt: now - hour / 2, sent: 40, displayed: 0)])
        let reading = try await AlertEvaluator.evaluate(stopped(minSent: 50), reader: reader, now: now)
        #expect(!reading.firing && reading.value == 0)
        #expect(try await AlertEvaluator.evaluate(stopped(minSent: 40), reader: reader, now: now).firing)
        // Nothing sent at all is nothing to judge, even with min_sent 0.
        #expect(try await !AlertEvaluator.evaluate(stopped(minSent: 0), reader: FakeReportReader(), now: now).firing)
    }

    @Test func receiptsStoppedLeavesTheGraceOut() async throws {
        // Sent two minutes ago and not displayed yet: inside the five-minute grace, so not judged.
        let reader = FakeReportReader(pushes: [
            push("old", sentAt: now - hour / 2, sent: 100, displayed: 90), push("new", sentAt: now - 120_000, sent: 1_000, displayed: 0),
        ])
        let reading = try await AlertEvaluator.evaluate(stopped(), reader: reader, now: now)
        #expect(!reading.firing && reading.value == 0.9)
        let noGrace = try await AlertEvaluator.evaluate(stopped(grace: 0), reader: reader, now: now)
        #expect(noGrace.firing)
    }

    func drop(minSent: Int64 = 50) -> AlertRule {
        AlertRule(name: "d", kind: .displayRateDrop, windowMillis: hour, threshold: 0.5, minSent: minSent, graceMillis: 0)
    }

    @Test func displayRateDropComparesWithTheWeekBefore() async throws {
        let baseline = push("b", sentAt: now - 3 * 86_400_000, sent: 1_000, displayed: 800)
        let falling = FakeReportReader(pushes: [baseline, push("w", sentAt: now - 60_000, sent: 100, displayed: 20)])
        let fired = try await AlertEvaluator.evaluate(drop(), reader: falling, now: now)
        #expect(fired.firing && fired.value == 0.25)
        #expect(falling.filters.map(\.fromMillis) == [now - hour, now - hour - AlertEvaluator.baselineMillis])
        let steady = FakeReportReader(pushes: [baseline, push("w", sentAt: now - 60_000, sent: 100, displayed: 60)])
        let ok = try await AlertEvaluator.evaluate(drop(), reader: steady, now: now)
        #expect(!ok.firing && abs((ok.value ?? 0) - 0.75) < 1e-12)
        let few = try await AlertEvaluator.evaluate(drop(minSent: 101), reader: falling, now: now)
        #expect(!few.firing && few.value == 0.25)
        // No baseline: nothing to compare with.
        let alone = try await AlertEvaluator.evaluate(drop(), reader: FakeReportReader(pushes: [push("w", sentAt: now - 60_000, sent: 100, displayed: 0)]), now: now)
        #expect(!alone.firing && alone.value == nil)
    }

    func version(_ name: String, receipts: Int64, opens: Int64) -> [VersionCount] {
        [
            VersionCount(version: name, kind: .display, action: "", count: EventCount(total: receipts + 3, duplicates: 3)),
            VersionCount(version: name, kind: .action, action: StandardAction.open, count: EventCount(total: opens)),
            VersionCount(version: name, kind: .action, action: StandardAction.dismiss, count: EventCount(total: 1_000)),
        ]
    }

    func notPosting(minSent: Int64 = 10) -> AlertRule {
        AlertRule(name: "v", kind: .versionNotPosting, windowMillis: hour, threshold: 0.5, minSent: minSent)
    }

    @Test func versionNotPostingNamesTheSilentVersion() async throws {
        let silent = FakeReportReader(versions: version("1.0", receipts: 90, opens: 10) + version("2.0", receipts: 0, opens: 10) + version("", receipts: 0, opens: 500))
        let fired = try await AlertEvaluator.evaluate(notPosting(), reader: silent, now: now)
        #expect(fired.firing && fired.value == 0 && fired.detail == "2.0")
        let even = FakeReportReader(versions: version("1.0", receipts: 60, opens: 10) + version("2.0", receipts: 40, opens: 10))
        let ok = try await AlertEvaluator.evaluate(notPosting(), reader: even, now: now)
        #expect(!ok.firing && ok.detail == "2.0" && ok.value == 0.8)
        // Fewer opens than min_sent for every version: too little to judge.
        let few = try await AlertEvaluator.evaluate(notPosting(minSent: 11), reader: silent, now: now)
        #expect(!few.firing && few.value == nil && few.detail == nil)
        #expect(try await !AlertEvaluator.evaluate(notPosting(), reader: FakeReportReader(), now: now).firing)
    }
}
