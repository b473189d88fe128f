import Foundation

/// The export file's lines: gzip NDJSON whose first line is an ``ExportHeader`` and every other line an
/// ``ExportedEvent``, keys sorted so two exports of the same events are byte-identical.
public enum ExportFormat {
    /// The header of an export of the database `source`, made now.
    public static func header(source: String, exportedAtMillis: Int64) -> ExportHeader {
        ExportHeader(
            format: ExportHeader.formatName, version: ExportHeader.currentVersion, source: source,
            exported_at: Timestamp.iso8601(millis: exportedAtMillis))
    }

    /// One line of the file, newline included.
    public static func line(_ record: some Encodable) throws -> String {
        String(decoding: try encoder.encode(record), as: UTF8.self) + "\n"
    }

    /// The header a file starts with, or `nil` when it is not an export this version can read (another format,
    /// or a newer version).
    public static func header(line: String) -> ExportHeader? {
        guard let header = try? JSONDecoder().decode(ExportHeader.self, from: Data(line.utf8)),
            header.format == ExportHeader.formatName, header.version <= ExportHeader.currentVersion
        else { return nil }
        return header
    }

    /// An event line.
    public static func event(line: String) throws -> ExportedEvent {
        try JSONDecoder().decode(ExportedEvent.self, from: Data(line.utf8))
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
