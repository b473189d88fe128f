import PushTallyCore

/// ``RecentDisplays`` recounted at most once a minute, however often and by however many Prometheus servers
/// `/metrics` is scraped: a count reads the rollups of every push (the stores filter by time after reading),
/// and an alert judged over 15 minutes gains nothing from fresher figures.
actor RecentDisplaysCache {
    /// How long a count is served before the next scrape recounts.
    static let maxAgeMillis: Int64 = 60 * 1000

    private let store: any ReportReader
    private var last: (countedAt: Int64, value: RecentDisplays)?
    /// The count under way: scrapes that arrive while it runs wait for it rather than start their own, so a
    /// database that stopped answering holds one count, not one per scrape.
    private var counting: Task<RecentDisplays, any Error>?

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
        let task = counting ?? Task { [store] in try await RecentDisplays.read(from: store) }
        counting = task
        defer { if counting == task { counting = nil } }
        let value = try await task.value
        last = (now, value)
        return value
    }
}
