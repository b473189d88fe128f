import Foundation

/// The timeline's JSON as a terminal table: one line per event, its fields in columns.
struct TimelineTable {
    var table = PlainTable(header: [
        "ts", "type", "push_id", "action", .init("campaign", text: true), .init("app", text: true, optional: true),
        .init("app_version", optional: true), .init("os_version", optional: true), .init("ttd_s", optional: true), "id",
        .init("value", text: true), .init("attribution", text: true), .init("duplicate", optional: true),
        // Last, so a script reading the piped columns by position reads the earlier ones where they were.
        .init("media", optional: true), .init("ext_ms", optional: true), .init("permission", optional: true),
    ])
    var next: String?

    init(json: String) throws {
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let events = object["events"] as? [[String: Any]]
        else { throw CocoaError(.coderReadCorrupt) }
        next = object["next"] as? String
        table.rows = events.map { event in
            func text(_ key: String) -> String {
                switch event[key] {
                case let string as String: string
                case let number as NSNumber: number.stringValue
                default: PlainTable.missing
                }
            }
            let id = event["session_id"] ?? event["conversion_id"]
            let value = event["value"].map { "\($0) \(event["currency"] as? String ?? "")" }
            let credit = event["attribution"].map { "\($0)" + ((event["attributed_push"] as? String).map { " \($0)" } ?? "") }
            return [
                text("ts"), text("type"), text("push_id"), text("action"), text("campaign"), text("app"), text("app_version"),
                text("os_version"), text("time_to_display_s"), (id as? String) ?? PlainTable.missing,
                value ?? PlainTable.missing, credit ?? PlainTable.missing, (event["duplicate"] as? Bool) == true ? "yes" : "no",
                text("media"), text("extension_ms"), text("notification_permission"),
            ]
        }
    }
}
