import Foundation
import PushTallyCore

/// Listings other than reports (keys, webhooks, deliveries, alerts, a device's timeline): aligned columns under
/// a header on a terminal, fitted to its width as reports are (``ColumnFit``); tab-separated lines without a
/// header into a pipe, every column whole.
struct PlainTable {
    /// A column's header, and how it gives way on a narrow terminal.
    struct Column: ExpressibleByStringLiteral {
        var title: String
        /// Free text (names, URLs, errors) that may be cut with `…`; ids and times stay whole, as people copy them.
        var isText = false
        /// Left out first when the terminal is too narrow for every column.
        var optional = false

        init(_ title: String, text: Bool = false, optional: Bool = false) {
            self.title = title
            self.isText = text
            self.optional = optional
        }

        init(stringLiteral title: String) { self.init(title) }
    }

    let header: [Column]
    var rows: [[String]] = []

    init(header: [Column]) { self.header = header }

    /// `–` stands for a missing value on a terminal; a pipe gets an empty field.
    static let missing = "–"

    func render(interactive: Bool = Terminal.isInteractive, colour: Bool = Terminal.colour, width: Int = Terminal.width) -> String {
        guard interactive else {
            return rows.map { row in row.map { $0 == Self.missing ? "" : Self.field($0) }.joined(separator: "\t") + "\n" }.joined()
        }
        let kept = ColumnFit.fit(
            header.indices.map { index in
                ColumnFit.Column(
                    width: ([header[index].title] + rows.map { $0[index] }).map(HumanTableRenderer.displayWidth).max() ?? 0,
                    isText: header[index].isText, optional: header[index].optional)
            },
            width: width)
        func line(_ cells: [String]) -> String {
            var drawn = kept.enumerated().map { position, column in
                let cell = HumanTableRenderer.truncated(Self.field(cells[column.index]), to: column.width)
                return position == kept.count - 1
                    ? cell : cell + String(repeating: " ", count: column.width - HumanTableRenderer.displayWidth(cell))
            }.joined(separator: "  ")
            while drawn.last == " " { drawn.removeLast() }
            return drawn
        }
        var first = line(header.map(\.title))
        if colour { first = "\u{1B}[1m" + first + "\u{1B}[0m" }
        return ([first] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    /// A tab or line break inside a value would split the line a script reads (or the row a person reads).
    private static func field(_ text: String) -> String {
        text.replacingOccurrences(of: "\t", with: " ").replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    }
}
