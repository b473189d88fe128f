/// RFC 4180 CSV that opens right in Excel and LibreOffice.
public enum CSVRenderer {
    /// Renders `table` with a header row, CRLF line ends, and optionally a UTF-8 BOM so Excel reads CJK text.
    public static func render(_ table: ReportTable, bom: Bool = false) -> String {
        var records = table.records { field(neutralised($0)) }
        records[0] = records[0].map(field)
        return (bom ? "\u{FEFF}" : "") + records.map { $0.joined(separator: ",") + "\r\n" }.joined()
    }

    /// The header record of a report written a page at a time, in the columns of `layout` (the union of every
    /// page's ``ReportTable/csvLayout``): what ``render(_:bom:)`` starts with.
    package static func header(_ layout: (fixed: [String], expanded: [String]), bom: Bool = false) -> String {
        (bom ? "\u{FEFF}" : "") + (layout.fixed + layout.expanded).map(field).joined(separator: ",") + "\r\n"
    }

    /// A page's rows in the columns of `layout`, as ``render(_:bom:)`` writes them after its header.
    package static func rows(_ table: ReportTable, layout: (fixed: [String], expanded: [String])) -> String {
        table.records(layout) { field(neutralised($0)) }.map { $0.joined(separator: ",") + "\r\n" }.joined()
    }

    /// A cell's text, user text given by `text`.
    static func cell(_ value: ReportValue, text: (String) -> String) -> String {
        switch value {
        case .text(let value): value.map(text) ?? ""
        default: cell(value)
        }
    }

    /// A cell as CSV writes it (user text unguarded and unquoted): `0.5`, `12`, `true`, or empty for unknown.
    public static func cell(_ value: ReportValue) -> String {
        switch value {
        case .text(let text): text ?? ""
        case .integer(let n): String(n)
        case .rate(let rate): rate.map { String($0) } ?? ""
        case .seconds(let number), .optionalInteger(let number): number.map { String($0) } ?? ""
        case .flag(let flag): flag ? "true" : "false"
        case .counts, .money: ""
        }
    }

    /// OWASP's CSV-injection guard: text a spreadsheet would run as a formula gets a leading apostrophe.
    public static func neutralised(_ text: String) -> String {
        guard let first = text.unicodeScalars.first else { return text }
        return "=+-@\t\r".unicodeScalars.contains(first) ? "'" + text : text
    }

    /// Quotes a field when it holds a separator, a quote or a line break, doubling inner quotes.
    public static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
