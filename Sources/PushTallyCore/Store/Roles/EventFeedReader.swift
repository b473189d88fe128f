/// Reads stored events in commit order for a warehouse: every event once, resumable from any line's cursor.
public protocol EventFeedReader: Sendable {
    /// Up to `limit` events committed after `cursor`, in commit order (``EventCursor``). An event that commits
    /// after a page was read comes after that page's last cursor, so a reader that resumes from it skips nothing.
    func eventFeed(after cursor: EventCursor, limit: Int) async throws -> EventFeedPage
}
