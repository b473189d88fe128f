import Foundation

/// How a report is drawn for people at a terminal.
public struct HumanTableStyle: Sendable, Equatable {
    /// The terminal's width in columns.
    public var width: Int
    /// Every column (by its CSV name) instead of the key ones, none cut to the terminal's width.
    public var wide: Bool
    /// ANSI colour (a bold header): only on a terminal, and never with `NO_COLOR`.
    public var colour: Bool

    public init(width: Int = 120, wide: Bool = false, colour: Bool = false) {
        self.width = width
        self.wide = wide
        self.colour = colour
    }
}

/// A report as a compact table for people, as `gh` and `kubectl` draw theirs: the key columns first, counts
/// with thousands separators (`1,000`), rates as percents with one decimal (`33.3%`), durations in units
/// (`45 s`, `3 min`), long names cut with `…` by display width (CJK characters count two), fitted to the
/// terminal's width. Pipes get CSV or JSON instead.
public enum HumanTableRenderer {
    /// A column shown without `--wide`, with the label people read.
    struct KeyColumn {
        let name: String
        let label: String
        /// Shown only where the terminal has room for it with every text column whole: given up before any
        /// text is cut, so a campaign's name never shrinks to make room for it.
        var optional = false
        /// Shown only in this report (by ``ReportTable/name``), where other reports carry the column too.
        var only: String?
    }

    /// The columns shown without `--wide`, in this order; a report shows those it has.
    static let keyColumns: [KeyColumn] = [
        KeyColumn(name: "campaign", label: "campaign"), KeyColumn(name: "push_id", label: "push"),
        KeyColumn(name: "start", label: "start"), KeyColumn(name: "version", label: "version"),
        // The variants report's columns; other reports carry `displayed` and `opened` as totals with retries.
        KeyColumn(name: "variant", label: "variant", only: "variants"),
        KeyColumn(name: "control", label: "control", only: "variants"),
        // Push rows carry these too: only a campaigns report grouped by one shows it without --wide.
        KeyColumn(name: "priority", label: "priority", only: "campaigns"),
        KeyColumn(name: "push_type", label: "push type", only: "campaigns"),
        KeyColumn(name: "sent", label: "sent"), KeyColumn(name: "displayed_unique", label: "displayed"),
        KeyColumn(name: "displayed", label: "displayed", only: "variants"),
        KeyColumn(name: "display_rate", label: "display rate"),
        KeyColumn(name: "display_rate_lift", label: "lift", only: "variants"),
        KeyColumn(name: "display_rate_p_value", label: "p", only: "variants"),
        KeyColumn(name: "opened_unique", label: "opened"), KeyColumn(name: "opened", label: "opened", only: "variants"),
        KeyColumn(name: "open_rate", label: "open rate"),
        KeyColumn(name: "open_rate_lift", label: "open lift", only: "variants"),
        KeyColumn(name: "open_rate_p_value", label: "open p", only: "variants"),
        KeyColumn(name: "time_to_display_p50", label: "p50 to display"),
        // Push and version rows carry it too: the campaign list is where people compare campaigns' media. Given up
        // on a narrow terminal before a campaign's name is cut.
        KeyColumn(name: "rich_rate", label: "rich rate", optional: true, only: "campaigns"),
        KeyColumn(name: "sessions", label: "sessions"),
        // A direct open is a tap, already in `opened`: only the attribution totals show it apart.
        KeyColumn(name: "direct_opens", label: "direct opens", only: "attribution"),
        KeyColumn(name: "influenced_opens", label: "influenced opens", optional: true),
        KeyColumn(name: "unattributed_sessions", label: "no-push sessions"),
        KeyColumn(name: "conversions", label: "conversions", optional: true),
        KeyColumn(name: "unattributed_conversions", label: "no-push conversions"),
        KeyColumn(name: "conversion_value", label: "value", optional: true),
        KeyColumn(name: "unattributed_conversion_value", label: "no-push value"),
        KeyColumn(name: "receipts", label: "receipts"), KeyColumn(name: "opens", label: "opens"),
        KeyColumn(name: "receipt_share", label: "receipt share"), KeyColumn(name: "open_share", label: "open share"),
        KeyColumn(name: "flagged", label: "flagged"),
    ] + audienceColumns

    /// The audience report's columns, its group's key first.
    private static let audienceColumns = [
        ("day", "day"), ("app", "app"), ("app_version", "app version"), ("devices", "devices"),
        ("authorized", "authorized"), ("provisional", "provisional"), ("ephemeral", "ephemeral"), ("denied", "denied"),
        ("not_determined", "not determined"), ("unknown", "unknown"), ("opt_in_rate", "opt-in rate"),
    ].map { KeyColumn(name: $0.0, label: $0.1, only: "audience") }

    public static func render(_ table: ReportTable, style: HumanTableStyle) -> String {
        let shape = table.rows.first ?? table.template
        var columns: [Column] = keyColumns.compactMap { key in
            guard key.only == nil || key.only == table.name,
                let value = shape.first(where: { $0.0 == key.name })?.1
            else { return nil }
            return Column(name: key.name, label: style.wide ? key.name : key.label, isText: isText(value), optional: key.optional)
        }
        if style.wide {
            for (name, value) in shape where !columns.contains(where: { $0.name == name }) {
                if value.expandedCells != nil { continue }
                columns.append(Column(name: name, label: name, isText: isText(value)))
            }
        }
        var cells = table.rows.map { row in
            columns.map { column in row.first { $0.0 == column.name }.map { cell($0.1, column: column.name) } ?? "–" }
        }
        if style.wide {
            // Map columns (actions by identifier) expand as the CSV expands them, after the fixed ones.
            let records = table.records()
            let expanded = table.csvLayout.expanded
            for name in expanded {
                let index = records[0].firstIndex(of: name)!
                columns.append(Column(name: name, label: name, isText: false))
                for row in cells.indices {
                    let text = records[row + 1][index]
                    cells[row].append(Int64(text).map(grouped) ?? text)
                }
            }
        }
        var widths = columns.indices.map { index in
            max(displayWidth(columns[index].label), cells.map { displayWidth($0[index]) }.max() ?? 0)
        }
        // `--wide` asks for every column whole, as `kubectl -o wide` does: the terminal wraps or scrolls.
        if !style.wide { fit(&widths, &columns, &cells, width: style.width) }
        var lines = [line(columns.map(\.label), widths, columns)]
        if style.colour { lines[0] = "\u{1B}[1m" + lines[0] + "\u{1B}[0m" }
        lines += cells.map { line(Array($0.prefix(columns.count)), widths, columns) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A cell for people: `1,234`, `33.3%`, `45 s`, `yes`, or `–` where there is no value.
    public static func cell(_ value: ReportValue, column: String = "") -> String {
        switch value {
        case .text(let text): text ?? (column == "campaign" ? "(unregistered)" : "–")
        case .integer(let number): grouped(number)
        // A p-value is a probability read against thresholds such as 0.05, not a share of anything.
        case .rate(let rate) where column.hasSuffix("_p_value"): rate.map(pValue) ?? "–"
        case .rate(let rate): rate.map { String(format: "%.1f%%", $0 * 100) } ?? "–"
        case .seconds(let seconds): seconds.map(duration) ?? "–"
        case .optionalInteger(let number): number.map(grouped) ?? "–"
        case .flag(let flag): flag ? "yes" : "no"
        case .counts(let counts, _): counts.keys.sorted().map { "\($0) \(grouped(counts[$0]!))" }.joined(separator: ", ")
        case .money(let amounts, _):
            amounts.keys.sorted().map { "\($0) \(amounts[$0]!.text)" }.joined(separator: ", ")
        }
    }

    /// `0.043`, or `<0.001` below what three decimals show.
    static func pValue(_ p: Double) -> String {
        p < 0.001 ? "<0.001" : String(format: "%.3f", p)
    }

    /// `1234567` as `1,234,567`.
    public static func grouped(_ number: Int64) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return number < 0 ? "-" + out : out
    }

    static func duration(_ seconds: Int64) -> String {
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7_200 { return "\(Int((Double(seconds) / 60).rounded())) min" }
        if seconds < 172_800 { return "\(Int((Double(seconds) / 3_600).rounded())) h" }
        return "\(Int((Double(seconds) / 86_400).rounded())) d"
    }

    private static func isText(_ value: ReportValue) -> Bool {
        if case .text = value { true } else { false }
    }

    /// A column as drawn.
    private struct Column {
        var name: String
        var label: String
        var isText: Bool
        var optional = false
    }

    /// Keeps the columns ``ColumnFit`` keeps for `width`, at the widths it gives them.
    private static func fit(_ widths: inout [Int], _ columns: inout [Column], _ cells: inout [[String]], width: Int) {
        let kept = ColumnFit.fit(
            columns.indices.map { ColumnFit.Column(width: widths[$0], isText: columns[$0].isText, optional: columns[$0].optional) },
            width: width)
        widths = kept.map(\.width)
        columns = kept.map { columns[$0.index] }
        cells = cells.map { row in kept.map { row[$0.index] } }
    }

    private static func line(_ cells: [String], _ widths: [Int], _ columns: [Column]) -> String {
        var parts: [String] = []
        for (index, cell) in cells.enumerated() where index < widths.count {
            let text = truncated(cell, to: widths[index])
            let padding = String(repeating: " ", count: widths[index] - displayWidth(text))
            // Numbers line up on the right, as people compare their magnitudes.
            parts.append(columns[index].isText ? text + padding : padding + text)
        }
        var joined = parts.joined(separator: "  ")
        while joined.last == " " { joined.removeLast() }
        return joined
    }

    /// `text` cut to `width` display columns, ending in `…` when cut.
    public static func truncated(_ text: String, to width: Int) -> String {
        guard displayWidth(text) > width else { return text }
        var out = ""
        var used = 0
        for character in text {
            let characterWidth = displayWidth(String(character))
            if used + characterWidth > width - 1 { break }
            out.append(character)
            used += characterWidth
        }
        return out + "…"
    }

    /// Terminal columns a string takes: East Asian wide characters (and most emoji) take two.
    public static func displayWidth(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x20000...0x3FFFD:
                width + 2
            default:
                width + 1
            }
        }
    }
}
