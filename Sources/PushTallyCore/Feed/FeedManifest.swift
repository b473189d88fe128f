import Crypto
import Foundation

/// `manifest.json` of an export directory (`pushtally export --out`): the files written so far, in order, and
/// where the export stands. It is replaced whole (written aside, synced, renamed) after each file is in
/// place, so it only ever lists whole files; a run goes on after its `last_cursor`.
public struct FeedManifest: Codable, Sendable, Hashable {
    public static let formatName = "pushtally-event-files"
    public static let fileName = "manifest.json"

    public var format: String
    /// ``FeedSchema/version`` of the files' rows.
    public var schema_version: Int
    /// `ndjson` (gzip) or `parquet`.
    public var file_format: String
    /// The cursor the first file starts after (empty: the feed's beginning).
    public var after: String
    /// The first and last events' cursors over every file; `nil` before the first file.
    public var first_cursor: String?
    public var last_cursor: String?
    /// Rows over every file.
    public var rows: Int
    /// The newest `received_at` exported, unix milliseconds: how far behind the export is.
    public var newest_received_at: Int64?
    public var updated_at: String
    public var files: [File]

    /// One file, as written.
    public struct File: Codable, Sendable, Hashable {
        public var name: String
        public var rows: Int
        public var first_cursor: String
        public var last_cursor: String
        public var bytes: Int
        /// Lowercase hex of the file's SHA-256.
        public var sha256: String

        public init(name: String, rows: Int, first_cursor: String, last_cursor: String, bytes: Int, sha256: String) {
            self.name = name
            self.rows = rows
            self.first_cursor = first_cursor
            self.last_cursor = last_cursor
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    /// A manifest of no files yet, starting after `after`.
    public init(fileFormat: String, after: EventCursor?, nowMillis: Int64) {
        format = Self.formatName
        schema_version = FeedSchema.version
        file_format = fileFormat
        self.after = after?.text ?? ""
        rows = 0
        updated_at = Timestamp.iso8601(millis: nowMillis)
        files = []
    }

    /// Where the next file starts.
    public func resumeCursor() throws(FieldError) -> EventCursor {
        guard let text = last_cursor ?? (after.isEmpty ? nil : after) else { return .start }
        return try EventCursor(text: text, field: "last_cursor")
    }

    /// Adds a file of `events` (in feed order) whose bytes are `bytes`.
    public mutating func add(_ name: String, events: [ExportedEvent], bytes: [UInt8], nowMillis: Int64) {
        let first = events.first?.cursor ?? ""
        let last = events.last?.cursor ?? ""
        files.append(File(name: name, rows: events.count, first_cursor: first, last_cursor: last, bytes: bytes.count, sha256: Self.sha256(bytes)))
        if first_cursor == nil { first_cursor = first }
        last_cursor = last
        rows += events.count
        if let newest = events.map(\.received_at).max() { newest_received_at = max(newest_received_at ?? newest, newest) }
        updated_at = Timestamp.iso8601(millis: nowMillis)
    }

    /// The manifest's text: pretty, keys sorted, a newline at the end.
    public func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }

    /// Lowercase hex of `bytes`' SHA-256.
    public static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}
