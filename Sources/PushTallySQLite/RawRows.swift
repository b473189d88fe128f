import GRDB
import PushTallyCore

/// Stores a commit's raw events, many rows a statement.
///
/// A statement a row paid, for every row, its own step and halt and its statement journal: in a C loop over this table
/// on the 2-core box, 27 rows one at a time took 2.1 µs a row, 27 in one statement 1.5 µs. Rows go in runs of one
/// column list (a push's own events name fewer columns than sessions, conversions and imports), each run in statements
/// of the sizes ``Queries/InsertEvent/rowCounts`` lists, so a commit takes a handful of statements and their texts stay
/// few, prepared in the connection's cache. Rows keep the events' order, so their rowids follow it.
enum RawRows {
    /// Stores `events` with their retry flags (`duplicates`, index for index), a push's own events naming only
    /// the receipt columns when `narrowReceipts` (ingest; an import stores every column it carries). Returns the
    /// rowids given, first to last (consecutive: SQLite gives each new row the highest rowid plus one, and
    /// nothing else stores raw events in the transaction), or `nil` for no events. The events' devices' client
    /// times follow them (``DeviceClientTimes``).
    static func insert(
        _ events: [StoredEvent], duplicates: [Bool], narrowReceipts: Bool, in db: Database
    ) throws -> ClosedRange<Int64>? {
        var first: Int64?
        var start = events.startIndex
        while start < events.endIndex {
            let narrow = narrowReceipts && events[start].kind.namesPush
            var end = start + 1
            while end < events.endIndex, (narrowReceipts && events[end].kind.namesPush) == narrow { end += 1 }
            try insertRun(events, duplicates, start..<end, narrow: narrow, in: db)
            // A run's rows take consecutive rowids, each the highest stored plus one.
            if first == nil { first = db.lastInsertedRowID - Int64(end - start) + 1 }
            start = end
        }
        guard let first else { return nil }
        let rows = first...db.lastInsertedRowID
        try DeviceClientTimes.note(events, in: db)
        return rows
    }

    /// One run of events sharing a column list, in statements of the largest sizes that fit.
    private static func insertRun(
        _ events: [StoredEvent], _ duplicates: [Bool], _ run: Range<Int>, narrow: Bool, in db: Database
    ) throws {
        let columns = narrow ? EventColumns.receipt : EventColumns.all
        let texts = narrow ? Queries.InsertEvent.receiptSQL : Queries.InsertEvent.outcomeSQL
        var next = run.lowerBound
        while next < run.upperBound {
            let size = Queries.InsertEvent.rowCounts.firstIndex { $0 <= run.upperBound - next } ?? texts.count - 1
            let rows = Queries.InsertEvent.rowCounts[size]
            let statement = try BoundStatement(db, sql: texts[size])
            var position: Int32 = 1
            for index in next..<next + rows {
                statement.bind(columns, events[index], duplicate: duplicates[index], from: position)
                position += Int32(columns.count)
            }
            try statement.execute()
            next += rows
        }
    }
}

extension BoundStatement {
    /// One raw row naming `columns` in the parameters from `first`, its credit left to attribution.
    func bind(_ columns: [EventColumn], _ event: StoredEvent, duplicate: Bool, from first: Int32) {
        var position = first
        for column in columns {
            switch column.value(of: event, duplicate: duplicate, credit: nil) {
            case .text(let value): bind(position, value)
            case .integer(let value): bind(position, value)
            case .boolean(let value): bind(position, value)
            }
            position += 1
        }
    }
}
