/// How a table's columns are fitted to a terminal's width, the same for reports and for listings: optional
/// columns go first (the rightmost first) while some text could be cut instead, then text columns narrow
/// (the widest first, down to ``narrowestText``), then columns go from the right until the rest fits.
public enum ColumnFit {
    /// A column as the fitting sees it.
    public struct Column: Sendable, Equatable {
        /// Display columns its widest cell (or its label) takes.
        public var width: Int
        /// Text that may be cut with `…`; numbers, ids and timestamps are never cut.
        public var isText: Bool
        /// Shown only where the terminal has room for it with every text column whole.
        public var optional: Bool

        public init(width: Int, isText: Bool, optional: Bool = false) {
            self.width = width
            self.isText = isText
            self.optional = optional
        }
    }

    /// Text columns give up width first, down to this many columns.
    public static let narrowestText = 8

    /// Columns are set apart by two spaces.
    public static let gap = 2

    /// The columns kept, by their index in `columns`, each with the width to draw it in.
    public static func fit(_ columns: [Column], width: Int) -> [(index: Int, width: Int)] {
        var kept = columns.indices.map { (index: $0, width: columns[$0].width) }
        func total() -> Int { kept.reduce(0) { $0 + $1.width } + gap * max(0, kept.count - 1) }
        while total() > width, kept.contains(where: { columns[$0.index].isText }),
            let optional = kept.lastIndex(where: { columns[$0.index].optional })
        {
            kept.remove(at: optional)
        }
        while total() > width {
            let candidates = kept.indices.filter { columns[kept[$0].index].isText && kept[$0].width > narrowestText }
            guard let widest = candidates.max(by: { kept[$0].width < kept[$1].width }) else { break }
            kept[widest].width = max(narrowestText, kept[widest].width - (total() - width))
        }
        while total() > width, kept.count > 1 {
            kept.removeLast()
        }
        return kept
    }
}
