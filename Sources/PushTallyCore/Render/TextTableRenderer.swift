import Foundation

/// An aligned plain-text table for people at a terminal.
public enum TextTableRenderer {
    public static func render(_ table: ReportTable) -> String {
        let columns = table.csvColumns
        let layout = table.csvLayout
        let expanded = Set(layout.expanded)
        let rows: [[String]] = table.rows.map { row in
            var cells: [String: String] = [:]
            for (name, value) in row {
                switch value {
                case .counts(let counts, let prefix?):
                    for (key, count) in counts { cells[prefix + key] = String(count) }
                case .counts(_, nil):
                    continue
                case .text(let text):
                    cells[name] = text ?? "-"
                case .rate(let rate):
                    cells[name] = rate.map { String(format: "%.4f", $0) } ?? "-"
                default:
                    cells[name] = CSVRenderer.cell(value)
                }
            }
            return columns.map { cells[$0] ?? (expanded.contains($0) ? "0" : "") }
        }
        let widths = columns.indices.map { index in
            ([columns[index]] + rows.map { $0[index] }).map(displayWidth).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { cell, width in
                cell + String(repeating: " ", count: width - displayWidth(cell))
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        return ([line(columns)] + rows.map(line)).joined(separator: "\n") + "\n"
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
