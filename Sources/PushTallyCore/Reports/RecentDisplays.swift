/// Sends and unique displays of the pushes sent between an hour and five minutes ago: what the display-rate
/// alert divides (`pushtally_recent_pushes_displayed / pushtally_recent_pushes_sent`).
///
/// Only pushes with a `sent_at` count: without one there is no "recently sent", and an orphan's receipts have
/// no sends to divide by. Displays are unique ones, as in a report's `display_rate`, so an extension retrying
/// receipts cannot hide a delivery problem.
public struct RecentDisplays: Sendable, Equatable {
    /// The pushes' sends (`pushtally_recent_pushes_sent`).
    public var sent: Int64
    /// Their unique displays (`pushtally_recent_pushes_displayed`).
    public var displayed: Int64

    /// Figures as counted; zero for a count to add to.
    public init(sent: Int64 = 0, displayed: Int64 = 0) {
        self.sent = sent
        self.displayed = displayed
    }

    /// Pushes younger than this are left out: most of their receipts are still on the way.
    public static let settleMillis: Int64 = 5 * 60 * 1000
    /// Pushes older than this are left out, so the figures follow what is being delivered now.
    public static let windowMillis: Int64 = 60 * 60 * 1000

    /// The `sent_at` range counted at `now`: [now - 1 h, now - 5 min).
    public static func range(now: Int64) -> Range<Int64> {
        (now - windowMillis)..<(now - settleMillis)
    }

    /// The sums over `figures` of the pushes whose `sent_at` is in ``range(now:)``.
    public static func count(_ figures: some Sequence<PushFigures>, now: Int64) throws(TotalOutOfRange) -> RecentDisplays {
        let range = range(now: now)
        var counted = RecentDisplays()
        for push in figures {
            guard let sentAt = push.sentAtMillis, range.contains(sentAt) else { continue }
            try counted.sent.add(push.funnel.sent, field: "sent")
            try counted.displayed.add(push.funnel.displayedUnique, field: "displayed_unique")
        }
        return counted
    }

    /// Counts from `store`'s rollups at its clock's now.
    public static func read(from store: any ReportReader) async throws -> RecentDisplays {
        let now = store.configuration.clock()
        let range = range(now: now)
        // The filter narrows by `sent_at`, or the first receipt when a push has none; `count` drops those.
        let figures = try await store.pushFigures(ReportFilter(fromMillis: range.lowerBound, toMillis: range.upperBound))
        return try count(figures, now: now)
    }
}
