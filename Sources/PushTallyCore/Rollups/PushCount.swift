/// A count a commit adds to a push's `rollup_push` row beside its events, declared once: its case here is its
/// column there (``RollupTable/push``), its cell in every row of receipt counts (``RollupAccumulator/Delta``) and
/// its sum in every funnel (``Funnel/counts``). What adds to it is ``RollupAccumulator``'s to decide.
package enum PushCount: Int, CaseIterable, Sendable {
    /// Unique displays received after their push's `final_at` (counted in the figures all the same).
    case late

    /// Its column in `rollup_push` (and the ledger's twin).
    package var column: String {
        switch self {
        case .late: "late"
        }
    }
}

/// One value per ``PushCount``, held inline: a row of receipt counts stays plain data, copied and hashed without
/// reference counting on the ingest path.
package struct PushCounts: Sendable, Hashable {
    /// One cell per case of ``PushCount``: a case added there needs a cell here, or setting it traps out of
    /// range (`PushCountsTests` names the mismatch).
    private typealias Cells = InlineArray<1, Int64>
    private var values = Cells(repeating: 0)

    package init() {}

    /// How many counts a row holds: one per ``PushCount`` case.
    package static var cells: Int { Cells.count }

    package subscript(count: PushCount) -> Int64 {
        get { values[count.rawValue] }
        set { values[count.rawValue] = newValue }
    }

    package mutating func add(_ other: PushCounts) {
        for index in values.indices { values[index] += other.values[index] }
    }

    package static func == (left: PushCounts, right: PushCounts) -> Bool {
        left.values.indices.allSatisfy { left.values[$0] == right.values[$0] }
    }

    package func hash(into hasher: inout Hasher) {
        for index in values.indices { hasher.combine(values[index]) }
    }
}
