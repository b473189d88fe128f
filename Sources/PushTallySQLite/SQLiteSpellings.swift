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
                for value in try db.fetch(Queries.SelectUnnormalizedNames(column: column)) { unnormalized.insert(ExactText(value)) }
            }
            if unnormalized.isEmpty { continue }
            for statement in SpellingMigration.clearScratch { try db.execute(sql: statement) }
            for nfc in Set(unnormalized.map { ExactText(CanonicalText.nfc($0.text)) }) {
                try db.run(Queries.InsertSpellingCandidate(name: nfc.text))
            }
            var storedNFC = Set<ExactText>()
            for column in columns {
                for value in try db.fetch(Queries.SelectStoredCandidates(column: column)) { storedNFC.insert(ExactText(value)) }
            }
            let plan = SpellingMigration.plan(domain, unnormalized: unnormalized, storedNFC: storedNFC)
            for (stored, nfc) in plan.renames {
                try db.run(Queries.InsertSpellingRename(stored: stored, nfc: nfc))
            }
            if !plan.renames.isEmpty {
                for column in columns { try db.run(Queries.RenameSpellings(column: column)) }
            }
            for spelling in plan.kept {
                try db.run(Queries.InsertLegacySpelling(spelling: spelling))
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
                held[column.table] = Set(try db.fetch(Queries.SelectColumnNames(table: column.table)))
            }
            return held[column.table]?.contains(column.column) == true
        }
    }
}
