/// One cell of a report row, typed so JSON and CSV render it the same way.
public enum ReportValue: Sendable, Hashable {
    /// Text from users' data (campaign names, titles, push ids): CSV guards it against formula injection.
    case text(String?)
    case integer(Int64)
    /// An integer that may be unknown (a push's `priority`): `null` in JSON and an empty cell in CSV.
    case optionalInteger(Int64?)
    /// A ratio; `nil` (zero denominator) is `null` in JSON and an empty cell in CSV.
    case rate(Double?)
    /// A duration in whole seconds; `nil` (no data) is `null` in JSON and an empty cell in CSV.
    case seconds(Int64?)
    case flag(Bool)
    /// A map such as actions by identifier: a JSON object, and in CSV one column per key, `prefix` + key.
    case counts([String: Int64], csvPrefix: String?)
    /// Amounts per currency (conversion values): a JSON object of decimal numbers
    /// (`{"USD": 9.99}`), and in CSV one column per currency, `prefix` + code, holding the exact decimal.
    case money([String: MoneyTotal], csvPrefix: String?)

    /// The keyed cells of a map value as CSV writes them, with its prefix; `nil` for other values.
    var expandedCells: (prefix: String?, cells: [String: String])? {
        switch self {
        case .counts(let counts, let prefix): (prefix, counts.mapValues { String($0) })
        case .money(let amounts, let prefix): (prefix, amounts.mapValues(\.text))
        default: nil
        }
    }
}

/// Rows of named cells in a stable column order: the single source both renderers read.
public struct ReportTable: Sendable, Hashable {
    /// The JSON key the rows go under (`campaigns`, `pushes`...).
    public var name: String
    public var rows: [[(String, ReportValue)]]
    /// A row of the table's shape, whose names give the CSV header when there are no rows.
    public var template: [(String, ReportValue)]
    /// Top-level JSON fields beside the rows (a time series' `bucket` and `tz`); CSV has no place for them.
    public var header: [(String, ReportValue)]

    public init(
        name: String, rows: [[(String, ReportValue)]], template: [(String, ReportValue)] = [],
        header: [(String, ReportValue)] = []
    ) {
        self.name = name
        self.rows = rows
        self.template = template
        self.header = header
    }

    /// CSV columns: fixed columns in order, then every map key (from any row) sorted, after them.
    public var csvColumns: [String] { csvLayout.fixed + csvLayout.expanded }

    /// The fixed columns and the columns expanded from maps, which read 0 where a row lacks the key.
    package var csvLayout: (fixed: [String], expanded: [String]) {
        var fixed: [String] = []
        var expanded: Set<String> = []
        for row in rows.isEmpty ? [template] : rows {
            for (name, value) in row {
                if let map = value.expandedCells {
                    if let prefix = map.prefix { for key in map.cells.keys { expanded.insert(prefix + key) } }
                } else if !fixed.contains(name) {
                    fixed.append(name)
                }
            }
        }
        return (fixed, expanded.sorted())
    }

    public static func == (lhs: ReportTable, rhs: ReportTable) -> Bool {
        lhs.name == rhs.name && lhs.rows.count == rhs.rows.count
            && zip(lhs.rows, rhs.rows).allSatisfy { a, b in
                a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
            }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(rows.count)
    }
}

extension ReportTable {
    /// The header and every row as cell texts, in CSV column order: the values CSV holds, with user text as
    /// `text` renders it (CSV guards and quotes it; a terminal shows it as it is). A map key absent from a row is
    /// a count of zero, not unknown.
    package func records(text: (String) -> String = { $0 }) -> [[String]] {
        let layout = csvLayout
        return [layout.fixed + layout.expanded] + records(layout, text: text)
    }

    /// The rows alone as cell texts in the columns of `layout` (a report's, written a page at a time).
    package func records(_ layout: (fixed: [String], expanded: [String]), text: (String) -> String = { $0 }) -> [[String]] {
        let columns = layout.fixed + layout.expanded
        let expanded = Set(layout.expanded)
        var records: [[String]] = []
        records.reserveCapacity(rows.count)
        for row in rows {
            var cells: [String: String] = [:]
            for (name, value) in row {
                if let map = value.expandedCells {
                    if let prefix = map.prefix { for (key, cell) in map.cells { cells[prefix + key] = cell } }
                } else {
                    cells[name] = CSVRenderer.cell(value, text: text)
                }
            }
            records.append(columns.map { cells[$0] ?? (expanded.contains($0) ? "0" : "") })
        }
        return records
    }

    /// The value of `column` in each row (`nil` where a row lacks it).
    public func values(of column: String) -> [ReportValue?] {
        rows.map { row in row.first { $0.0 == column }?.1 }
    }
}
