import Foundation

/// Reads send records in bulk, from CSV (a header row naming the fields) or NDJSON, line by line, so one
/// bad line is reported with its number and the rest still import.
public enum PushImport {
    /// One parsed line: its 1-based line number in the file and the record or what was wrong with it.
    public struct Line: Sendable {
        public var number: Int
        public var result: Result<PushRegistration, FieldError>
    }

    /// CSV columns: `push_id`, `campaign`, `title`, `sent_at`, `targeted`, `sent`, `app`, `environment`,
    /// `failed` (a total) or `failed:<Reason>` columns (e.g. `failed:Unregistered`), `variant`, `collapse_id`,
    /// `priority`, `push_type`, `expiration`, `platform`. Unknown columns are ignored; a row with more or fewer
    /// fields than the header is refused by itself (`malformed_csv`).
    public static func csv(_ text: String) -> [Line] {
        let numeric: Set<String> = ["targeted", "sent", "failed", "priority"]
        return CSVParser.namedRows(text).map { number, cells in
            Line(number: number, result: Result { () throws(FieldError) in
                var object: [String: JSONValue] = [:]
                var failed: [String: JSONValue] = [:]
                for (name, cell) in try cells.get() {
                    if name.hasPrefix("failed:") {
                        failed[String(name.dropFirst(7))] = Self.number(cell)
                    } else if numeric.contains(name) {
                        object[name] = Self.number(cell)
                    } else {
                        object[name] = .string(cell)
                    }
                }
                if !failed.isEmpty { object["failed"] = .object(failed) }
                return try PushValidator.registration(.object(object))
            })
        }
    }

    /// One JSON object a line, as `POST /v1/pushes` takes them.
    public static func ndjson(_ text: String) -> [Line] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { offset, line in
            guard line.contains(where: { !$0.isWhitespace }) else { return nil }
            return Line(number: offset + 1, result: Result { () throws(FieldError) in
                try PushValidator.registration(try JSONValue.parse(Data(line.utf8)))
            })
        }
    }

    /// A CSV cell as a JSON number when it is one, else as text (so validation names the field).
    private static func number(_ cell: String) -> JSONValue {
        Double(cell.trimmingCharacters(in: .whitespaces)).map(JSONValue.number) ?? .string(cell)
    }
}
