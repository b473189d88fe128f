/// One page of a device's timeline, oldest first, and where the next page starts when more remain.
public struct DeviceTimelinePage: Sendable, Hashable {
    public var entries: [TimelineEntry]
    /// `nil` on the last page.
    public var next: TimelineCursor?

    public init(entries: [TimelineEntry], next: TimelineCursor?) {
        self.entries = entries
        self.next = next
    }

    /// A page from up to `limit + 1` rows read in timeline order: the extra row only says that more remain.
    public init(rows: [TimelineEntry], limit: Int) {
        guard rows.count > limit else {
            self.init(entries: rows, next: nil)
            return
        }
        let entries = Array(rows.prefix(limit))
        self.init(entries: entries, next: entries.last.map { TimelineCursor(eventTimeMillis: $0.eventTimeMillis, row: $0.row) })
    }

    /// `{"events":[...],"next":"..."}`, `next` only when more remain: what the route answers and the CLI prints.
    public var json: String {
        var json = JSONText()
        json.raw("{\"events\":[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { json.raw(",") }
            entry.write(to: &json)
        }
        json.raw("]")
        if let next { json.raw(",\"next\":" + JSONText.quoted(next.text)) }
        json.raw("}")
        return json.text
    }

    /// The largest page a caller may ask for, and the size of a page when it does not say.
    public static let maximumLimit = 1000
    public static let defaultLimit = 100
}
