import PushTallyCore

/// Sends and unique displays of the pushes sent between an hour and five minutes ago: what the display-rate
/// alert divides (`pushtally_recent_pushes_displayed / pushtally_recent_pushes_sent`).
///
/// Only pushes with a `sent_at` count: without one there is no "recently sent", and an orphan's receipts have
/// no sends to divide by. Displays are unique ones, as in a report's `display_rate`, so an extension retrying
/// receipts cannot hide a delivery problem.
struct RecentDisplays: Sendable, Equatable {
    var sent: Int64 = 0
    var displayed: Int64 = 0

    /// Pushes younger than this are left out: most of their receipts are still on the way.
    static let settleMillis: Int64 = 5 * 60 * 1000
    /// Pushes older than this are left out, so the figures follow what is being delivered now.
    static let windowMillis: Int64 = 60 * 60 * 1000

    /// The `sent_at` range counted at `now`: [now - 1 h, now - 5 min).
    static func range(now: Int64) -> Range<Int64> {
        (now - windowMillis)..<(now - settleMillis)
    }

    /// The sums over `figures` of the pushes whose `sent_at` is in ``range(now:)``.
    static func count(_ figures: some Sequence<PushFigures>, now: Int64) -> RecentDisplays {
        let range = range(now: now)
        var counted = RecentDisplays()
        for push in figures {
            guard let sentAt = push.sentAtMillis, range.contains(sentAt) else { continue }
            counted.sent += push.funnel.sent
            counted.displayed += push.funnel.displayedUnique
        }
        return counted
    }

    /// Counts from `store`'s rollups at its clock's now.
    static func read(from store: any ReportReader) async throws -> RecentDisplays {
        let now = store.configuration.clock()
        let range = range(now: now)
        // The filter narrows by `sent_at`, or the first receipt when a push has none; `count` drops those.
        let figures = try await store.pushFigures(ReportFilter(fromMillis: range.lowerBound, toMillis: range.upperBound))
        return count(figures, now: now)
    }
}

/// ``RecentDisplays`` recounted at most once a minute, however often and by however many Prometheus servers
/// `/metrics` is scraped: a count reads the rollups of every push (the stores filter by time after reading),
/// and an alert judged over 15 minutes gains nothing from fresher figures.
actor RecentDisplaysCache {
    /// How long a count is served before the next scrape recounts.
    static let maxAgeMillis: Int64 = 60 * 1000

    private let store: any ReportReader
    private var last: (countedAt: Int64, value: RecentDisplays)?

    init(store: any ReportReader) {
        self.store = store
    }

    /// The last count when it is younger than ``maxAgeMillis``, else a new one.
    /// - Throws: what the store throws when it cannot be read (a failed count is not kept).
    func current() async throws -> RecentDisplays {
        let now = store.configuration.clock()
        // A clock set back recounts rather than serving the old count until it catches up.
        if let last, now >= last.countedAt, now - last.countedAt < Self.maxAgeMillis {
            return last.value
        }
        let value = try await RecentDisplays.read(from: store)
        last = (now, value)
        return value
    }
}
