/// An aligned plain-text table for people at a terminal.
public enum TextTableRenderer {
    /// Renders the table's cells aligned, drawn from its rows: exactly the values the CSV holds, without the
    /// CSV's quoting and spreadsheet guard (a terminal runs no formulas).
    public static func render(_ table: ReportTable) -> String {
        render(records: table.records())
    }

    /// Aligns records (the first is the header) into columns two spaces apart.
    public static func render(records: [[String]]) -> String {
        let columnCount = records.map(\.count).max() ?? 0
        let widths = (0..<columnCount).map { index in
            records.map { $0.indices.contains(index) ? displayWidth($0[index]) : 0 }.max() ?? 0
        }
        return records.map { record in
            zip(record, widths).map { cell, width in
                cell + String(repeating: " ", count: width - displayWidth(cell))
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n") + "\n"
    }

    /// Terminal columns a string takes: East Asian wide characters take two.
    static func displayWidth(_ text: String) -> Int {
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

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
