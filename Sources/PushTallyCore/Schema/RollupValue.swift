/// Where a rollup value column's value comes from in an accumulated row: the writers of both engines bind a
/// row's values by walking its table's ``RollupTable/values`` in declared order and reading each one from the
/// row's delta, so a column declared there is written by every writer without a binding of its own.
///
/// The histogram and media tables need none: their values are count arrays kept in their columns' declared
/// order (``TimingColumns``, ``MediaOutcomes``), and pending timing's one value is the row's count.
package enum RollupValue: Sendable, Hashable {
    /// A field of a row of receipt counts (``RollupAccumulator/Delta``).
    case delta(RollupAccumulator.Delta.Field)
    /// A field of a row of session or conversion outcomes (``RollupAccumulator/OutcomeDelta``).
    case outcome(RollupAccumulator.OutcomeDelta.Field)
}

extension RollupAccumulator.Delta {
    /// A value column of the receipt count tables.
    package enum Field: Sendable, Hashable {
        case total, duplicates, firstTime, lastTime
        /// One of the per-push counts, each declared once as a ``PushCount``.
        case count(PushCount)
    }

    /// The field's value: what a writer binds, and what a report read sets from the column that stores it.
    package subscript(field: Field) -> Int64 {
        get {
            switch field {
            case .total: total
            case .duplicates: duplicates
            case .firstTime: firstTime
            case .lastTime: lastTime
            case .count(let count): counts[count]
            }
        }
        set {
            switch field {
            case .total: total = newValue
            case .duplicates: duplicates = newValue
            case .firstTime: firstTime = newValue
            case .lastTime: lastTime = newValue
            case .count(let count): counts[count] = newValue
            }
        }
    }
}

extension RollupAccumulator.OutcomeDelta {
    /// A value column of the outcome tables: the value as its two parts (``MoneyTotal``).
    package enum Field: Sendable, Hashable { case count, valueMicros, valueUnits }

    package subscript(field: Field) -> Int64 {
        switch field {
        case .count: count
        case .valueMicros: value.micros
        case .valueUnits: value.units
        }
    }
}

extension RollupTable {
    /// The delta fields of this table's value columns, in declared order: the binding order of a row of
    /// receipt counts. Read once per table by each writer, never per row.
    package var deltaFields: [RollupAccumulator.Delta.Field] {
        values.map { column in
            guard case .delta(let field) = column.value else { preconditionFailure("\(name(in: .rollups)).\(column.name) reads no count delta") }
            return field
        }
    }

    /// The outcome fields of this table's value columns, in declared order (see ``deltaFields``).
    package var outcomeFields: [RollupAccumulator.OutcomeDelta.Field] {
        values.map { column in
            guard case .outcome(let field) = column.value else { preconditionFailure("\(name(in: .rollups)).\(column.name) reads no outcome delta") }
            return field
        }
    }
}
