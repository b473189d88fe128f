/// RFC 4180 CSV that opens right in Excel and LibreOffice.
public enum CSVRenderer {
    /// Renders `table` with a header row, CRLF line ends, and optionally a UTF-8 BOM so Excel reads CJK text.
    public static func render(_ table: ReportTable, bom: Bool = false) -> String {
        let layout = table.csvLayout
        let columns = layout.fixed + layout.expanded
        let expanded = Set(layout.expanded)
        var out = bom ? "\u{FEFF}" : ""
        out += columns.map { field($0) }.joined(separator: ",") + "\r\n"
        for row in table.rows {
            var cells: [String: String] = [:]
            for (name, value) in row {
                switch value {
                case .counts(let counts, let prefix?):
                    for (key, count) in counts { cells[prefix + key] = String(count) }
                case .counts(_, nil):
                    continue
                default:
                    cells[name] = cell(value)
                }
            }
            // A map key absent from this row is a count of zero, not unknown.
            out += columns.map { cells[$0] ?? (expanded.contains($0) ? "0" : "") }.joined(separator: ",") + "\r\n"
        }
        return out
    }

    static func cell(_ value: ReportValue) -> String {
        switch value {
        case .text(let text): text.map { field(neutralised($0)) } ?? ""
        case .integer(let n): String(n)
        case .rate(let rate): rate.map { String($0) } ?? ""
        case .seconds(let seconds): seconds.map { String($0) } ?? ""
        case .flag(let flag): flag ? "true" : "false"
        case .counts: ""
        }
    }

    /// OWASP's CSV-injection guard: text a spreadsheet would run as a formula gets a leading apostrophe.
    public static func neutralised(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        return "=+-@\t\r".unicodeScalars.contains(first) ? "'" + text : text
    }

    /// The text ``neutralised(_:)`` was given: for showing a cell where no spreadsheet runs it (a terminal).
    public static func unneutralised(_ cell: String) -> String {
        guard cell.hasPrefix("'"), neutralised(String(cell.dropFirst())) == cell else { return cell }
        return String(cell.dropFirst())
    }

    /// Quotes a field when it holds a separator, a quote or a line break, doubling inner quotes.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
