/// Evaluates alert rules on report figures (``ReportReader``), so both engines judge alike.
public enum AlertEvaluator {
    /// The stretch `display_rate_drop` compares against: the 7 days before the window.
    public static let baselineMillis: Int64 = 7 * 86_400_000

    /// Reads `rule` at `now`. Too little traffic to judge (below `min_sent`) reads as ok with the value it has.
    public static func evaluate(_ rule: AlertRule, reader: some ReportReader, now: Int64) async throws -> AlertReading {
        let end = now - rule.graceMillis
        let start = end - rule.windowMillis
        switch rule.kind {
        case .receiptsStopped:
            let window = try await totals(rule, reader: reader, from: start, to: end)
            let rate = window.rate
            return AlertReading(firing: window.sent >= rule.minSent && window.sent > 0 && (rate ?? 0) < rule.threshold, value: rate)
        case .displayRateDrop:
            let window = try await totals(rule, reader: reader, from: start, to: end)
            let baseline = try await totals(rule, reader: reader, from: start - baselineMillis, to: start)
            guard let current = window.rate, let before = baseline.rate, before > 0 else {
                return AlertReading(firing: false, value: nil)
            }
            let ratio = current / before
            return AlertReading(firing: window.sent >= rule.minSent && ratio < rule.threshold, value: ratio)
        case .versionNotPosting:
            return try await versionReading(rule, reader: reader, from: start, to: end)
        }
    }

    struct Totals {
        var sent: Int64 = 0
        var displayed: Int64 = 0
        /// Unique displays per device sent to; `nil` with nothing sent.
        var rate: Double? { sent > 0 ? Double(displayed) / Double(sent) : nil }
    }

    /// Sends and unique displays of the registered pushes sent in [from, to) within the rule's scope.
    static func totals(_ rule: AlertRule, reader: some ReportReader, from: Int64, to: Int64) async throws -> Totals {
        let pushes = try await reader.pushFigures(ReportFilter(fromMillis: from, toMillis: to, campaign: rule.campaign, app: rule.app))
        var totals = Totals()
        for push in pushes where push.sentAtMillis != nil {
            try totals.sent.add(push.funnel.sent, field: "sent")
            try totals.displayed.add(push.funnel.displayedUnique, field: "displayed_unique")
        }
        return totals
    }

    /// The app version whose share of receipts falls furthest below its share of opens, among versions with
    /// at least `min_sent` opens. Events naming no version are left out: they say nothing about one.
    static func versionReading(_ rule: AlertRule, reader: some ReportReader, from: Int64, to: Int64) async throws -> AlertReading {
        let counts = try await reader.versionCounts(
            ReportFilter(fromMillis: from, toMillis: to, campaign: rule.campaign, app: rule.app), dimension: .appVersion)
        var receipts: [String: Int64] = [:]
        var opens: [String: Int64] = [:]
        for count in counts where !count.version.isEmpty {
            if count.kind == .display {
                receipts[count.version, default: 0] += count.count.unique
            } else if count.kind == .action && count.action == StandardAction.open {
                opens[count.version, default: 0] += count.count.unique
            }
        }
        let allReceipts = receipts.values.reduce(0, +)
        let allOpens = opens.values.reduce(0, +)
        guard allOpens > 0 else { return AlertReading(firing: false, value: nil) }
        var worst: (version: String, ratio: Double)?
        for (version, opened) in opens.sorted(by: { $0.key < $1.key }) where opened >= max(rule.minSent, 1) {
            let openShare = Double(opened) / Double(allOpens)
            let receiptShare = allReceipts > 0 ? Double(receipts[version] ?? 0) / Double(allReceipts) : 0
            let ratio = receiptShare / openShare
            if worst == nil || ratio < worst!.ratio { worst = (version, ratio) }
        }
        guard let worst else { return AlertReading(firing: false, value: nil) }
        return AlertReading(firing: worst.ratio < rule.threshold, value: worst.ratio, detail: worst.version)
    }
}
