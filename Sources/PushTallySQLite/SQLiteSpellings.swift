import GRDB
import PushTallyCore

/// SQLite's run of ``SpellingMigration``: the scan compares each stored value with its NFC form through a SQL
/// function made of the same code that puts names in NFC at the door (``CanonicalText``).
enum SQLiteSpellings {
    static let nfcFunction = DatabaseFunction("pushtally_nfc", argumentCount: 1, pure: true) { values in
        String.fromDatabaseValue(values[0]).map(CanonicalText.nfc)
    }

    /// Runs inside the migration's transaction.
    static func migrate(_ db: Database) throws {
        try db.execute(sql: SpellingMigration.createLegacySpellings)
        db.add(function: nfcFunction)
        defer { db.remove(function: nfcFunction) }
        for statement in SpellingMigration.createScratch(.sqlite) { try db.execute(sql: statement) }
        var kept: [LegacySpelling] = []
        for domain in NameDomain.allCases {
            // Tables and columns made by later migrations are written in NFC from the start.
            let columns = try StoredNameColumn.existing(StoredNames.columns(domain), in: db)
            var unnormalized = Set<ExactText>()
            for column in columns {
                let scan = SpellingMigration.scan(column, test: "{} <> pushtally_nfc({})")
                for value in try String.fetchAll(db, sql: scan) { unnormalized.insert(ExactText(value)) }
            }
            if unnormalized.isEmpty { continue }
            for statement in SpellingMigration.clearScratch { try db.execute(sql: statement) }
            for nfc in Set(unnormalized.map { ExactText(CanonicalText.nfc($0.text)) }) {
                try db.execute(sql: "INSERT INTO spelling_candidates (name) VALUES (?)", arguments: [nfc.text])
            }
            var storedNFC = Set<ExactText>()
            for column in columns {
                for value in try String.fetchAll(db, sql: SpellingMigration.present(column)) { storedNFC.insert(ExactText(value)) }
            }
            let plan = SpellingMigration.plan(domain, unnormalized: unnormalized, storedNFC: storedNFC)
            for (stored, nfc) in plan.renames {
                try db.execute(sql: "INSERT INTO spelling_renames (stored, nfc) VALUES (?, ?)", arguments: [stored, nfc])
            }
            if !plan.renames.isEmpty {
                for column in columns { try db.execute(sql: SpellingMigration.rename(column)) }
            }
            for spelling in plan.kept {
                try db.execute(
                    sql: "INSERT INTO legacy_spellings (domain, stored, nfc) VALUES (?, ?, ?)",
                    arguments: [spelling.domain, spelling.stored, spelling.nfc])
            }
            kept += plan.kept
        }
        for statement in SpellingMigration.dropSQLiteScratch { try db.execute(sql: statement) }
        SpellingMigration.warn(kept)
    }
}

extension StoredNameColumn {
    /// The columns of `columns` that the database holds now.
    static func existing(_ columns: [StoredNameColumn], in db: Database) throws -> [StoredNameColumn] {
        var held: [String: Set<String>] = [:]
        return try columns.filter { column in
            if held[column.table] == nil {
                held[column.table] = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [column.table]))
            }
            return held[column.table]?.contains(column.column) == true
        }
    }
}
