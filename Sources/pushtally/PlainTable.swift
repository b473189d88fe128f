import Foundation
import PushTallyCore

/// Listings other than reports (webhooks, deliveries, alerts): aligned columns under a header on a terminal,
/// tab-separated lines without a header into a pipe, as `keys list` prints them.
struct PlainTable {
    let header: [String]
    var rows: [[String]] = []

    /// `–` stands for a missing value on a terminal; a pipe gets an empty field.
    static let missing = "–"

    func render(interactive: Bool = Terminal.isInteractive, colour: Bool = Terminal.colour) -> String {
        guard interactive else {
            return rows.map { row in row.map { $0 == Self.missing ? "" : Self.field($0) }.joined(separator: "\t") + "\n" }.joined()
        }
        let widths = header.indices.map { index in
            ([header[index]] + rows.map { $0[index] }).map(HumanTableRenderer.displayWidth).max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - HumanTableRenderer.displayWidth(cell))
            }.joined(separator: "  ")
        }
        var first = line(header)
        if colour { first = "\u{1B}[1m" + first + "\u{1B}[0m" }
        return ([first] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// A tab or line break inside a value would split the line a script reads.
    private static func field(_ text: String) -> String {
        text.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
