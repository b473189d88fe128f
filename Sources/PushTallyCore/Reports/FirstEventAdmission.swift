/// A time filter's admission of pushes to the campaign list: a push is kept by its `sent_at`, or, when it has
/// none, by its first event, which is read after registrations and before any count. Such pushes wait here,
/// by their position in ``CampaignListAssembly``, until their first event settles them.
struct FirstEventAdmission: Sendable {
    private let filter: ReportFilter
    private var waiting: [Int: (campaign: String, attributes: SendAttributes)] = [:]

    init(_ filter: ReportFilter) { self.filter = filter }

    /// What a push registered at `position` with `sentAtMillis` is: kept at once, left out, or (no `sent_at`
    /// under a time range) waiting for its first event.
    mutating func registered(position: Int, campaign: String, attributes: SendAttributes, sentAtMillis: Int64?) -> Bool {
        if filter.includes(referenceMillis: sentAtMillis) { return true }
        if sentAtMillis == nil { waiting[position] = (campaign, attributes) }
        return false
    }

    /// The campaign and attributes of the push waiting at `position` if its first event, at `millis`, is in
    /// range; `nil` when it waited for nothing or its event falls outside. Either way it waits no more.
    mutating func firstEvent(position: Int, millis: Int64) -> (campaign: String, attributes: SendAttributes)? {
        guard let waiting = waiting.removeValue(forKey: position), filter.includes(referenceMillis: millis) else { return nil }
        return waiting
    }
}
