import PushTallyCore

/// A rollup table's key columns as it declares them (``RollupTable/key``), each read from a key by its name
/// (``RollupKeyCells``): bound in the declared order, the order ``AdditiveSQL`` numbers its parameters in, so a
/// key column added to a declaration is bound where the statement expects it or fails at once, never shifted.
/// Made once per table; a row then binds a cell per column with no lookup by name. Sendable as its cells are: each
/// reads a field of the key it is given and captures nothing (``RollupKeyCells``).
struct RollupKeyBinder<Key: RollupKeyCells>: @unchecked Sendable {
    private enum Cell {
        case text((Key) -> String)
        case integer((Key) -> Int64)
    }

    private let cells: [Cell]

    init(_ table: RollupTable) {
        cells = table.key.map { column in
            switch column.type {
            case .text:
                guard let read = Key.text(column.name) else { preconditionFailure("\(Key.self) holds no \(column.name)") }
                return .text(read)
            case .integer, .boolean:
                guard let read = Key.integer(column.name) else { preconditionFailure("\(Key.self) holds no \(column.name)") }
                return .integer(read)
            }
        }
    }

    /// Binds `key`'s columns from the first parameter on and returns the index of the parameter after them,
    /// where the row's values start.
    func bind(_ key: Key, to statement: BoundStatement) -> Int32 {
        var index: Int32 = 1
        for cell in cells {
            switch cell {
            case .text(let read): statement.bind(index, read(key))
            case .integer(let read): statement.bind(index, read(key))
            }
            index += 1
        }
        return index
    }
}
