import Foundation
import PushTallyCore

extension Queries {
    /// Up to `limit` rows of a table after a key (`nil`: from the start), in key order, every column in
    /// ``CopyTable/columns``' order. Raw events have no declared key: their rowid is read as `id`.
    ///
    /// Its rows are read with each cell's storage class (a copy writes each value as it is stored), which
    /// ``QueryRow`` does not carry, so it is a ``StoreQuery`` whose rows the copy source reads itself.
    struct SelectCopyPage: StoreQuery {
        let table: CopyTable
        let after: [CopyValue]?
        let limit: Int

        func sql(_ dialect: SQLDialect) -> String {
            let selected = table.columns.map { $0 == "id" && table.name == "events" ? "rowid AS id" : $0 }
            let keys = table.columns.prefix(table.keyCount).map { $0 == "id" && table.name == "events" ? "rowid" : $0 }
            var sql = "SELECT \(selected.joined(separator: ", ")) FROM \(table.name)"
            if after != nil {
                sql += " WHERE (\(keys.joined(separator: ", "))) > (\(keys.map { _ in "?" }.joined(separator: ", ")))"
            }
            sql += " ORDER BY \(keys.joined(separator: ", ")) LIMIT \(limit)"
            return sql
        }

        var values: [QueryValue] { after?.map(\.queryValue) ?? [] }
    }
}

extension CopyValue {
    /// The value as a statement binds it; a `NULL` as SQLite takes it, untyped.
    var queryValue: QueryValue {
        switch self {
        case .null: .text(nil)
        case .integer(let integer): .integer(integer)
        case .real(let double): .real(double)
        case .text(let string): .text(string)
        case .blob(let bytes): .bytes(Data(bytes))
        }
    }
}
