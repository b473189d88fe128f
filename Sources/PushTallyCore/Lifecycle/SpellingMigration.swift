import Logging

/// A name a database holds in a spelling other than NFC, kept as stored because its NFC spelling is stored too:
/// the two were counted as two names, and merging them would add up what was counted apart.
public struct LegacySpelling: Sendable, Hashable, Codable {
    /// The kind of name (``NameDomain``'s raw value: `push_id`, `campaign`, `app`, …).
    public var domain: String
    /// The spelling as stored.
    public var stored: String
    /// Its NFC spelling, which names another row.
    public var nfc: String

    public init(domain: String, stored: String, nfc: String) {
        self.domain = domain
        self.stored = stored
        self.nfc = nfc
    }
}

/// The migration that brings a database written before names were put in NFC at the door under the same rule.
///
/// For each domain (``NameDomain``), the stored spellings that are not NFC are found in every column of the
/// domain (``StoredNames``). A spelling whose NFC form is stored nowhere in the domain is renamed to it in
/// every column, so its rows become the NFC name's rows (no key can collide: nothing held that name). A spelling
/// whose NFC form is stored already names a second set of rows, counted apart: it is kept as it is and recorded
/// in `legacy_spellings`, never merged. Of several spellings sharing an NFC form that is stored nowhere, the first
/// by its bytes is renamed and the others are kept.
///
/// Each engine runs the steps in one transaction with its own statements for the scan; the plan and every other
/// statement are written here once.
package enum SpellingMigration {
    package static let sqliteIdentifier = "v20-one-spelling"
    package static let postgresVersion = 23
    package static let postgresName = "v23-one-spelling"

    /// The table of spellings kept as stored.
    package static let createLegacySpellings = """
        CREATE TABLE legacy_spellings (
            domain TEXT NOT NULL, stored TEXT NOT NULL, nfc TEXT NOT NULL, PRIMARY KEY (domain, stored))
        """

    /// The spellings kept, in a stable order (the bytes' order on both engines: `COLLATE "C"` on PostgreSQL).
    package static func listLegacySpellings(_ dialect: SQLDialect) -> String {
        let bytes = dialect == .sqlite ? "" : " COLLATE \"C\""
        return "SELECT domain, stored, nfc FROM legacy_spellings ORDER BY domain\(bytes), stored\(bytes)"
    }

    /// Scratch tables of one domain's step: the NFC names looked for, and the renames to make.
    package static func createScratch(_ dialect: SQLDialect) -> [String] {
        // PostgreSQL drops them with the transaction; SQLite keeps temporary tables for the connection's life.
        let drop = dialect == .sqlite ? "" : " ON COMMIT DROP"
        return [
            "CREATE TEMP TABLE spelling_candidates (name TEXT PRIMARY KEY)\(drop)",
            "CREATE TEMP TABLE spelling_renames (stored TEXT PRIMARY KEY, nfc TEXT NOT NULL)\(drop)",
        ]
    }

    package static let clearScratch = ["DELETE FROM spelling_candidates", "DELETE FROM spelling_renames"]
    /// SQLite keeps temporary tables for the connection's life: dropped after the last domain.
    package static let dropSQLiteScratch = ["DROP TABLE temp.spelling_candidates", "DROP TABLE temp.spelling_renames"]

    /// The rows a column's condition selects, as a clause to add after a `WHERE`'s first term.
    private static func and(_ column: StoredNameColumn) -> String {
        column.condition.map { " AND \($0)" } ?? ""
    }

    /// The distinct values of `column` that `test` (a condition on the column's value, `{}` standing for it)
    /// selects.
    package static func scan(_ column: StoredNameColumn, test: String) -> String {
        let value = column.column
        let condition = test.replacingOccurrences(of: "{}", with: value)
        return "SELECT DISTINCT \(value) FROM \(column.table) WHERE \(value) IS NOT NULL AND \(condition)\(and(column))"
    }

    /// The candidates (NFC names) that `column` holds.
    package static func present(_ column: StoredNameColumn) -> String {
        let value = column.column
        return "SELECT DISTINCT \(value) FROM \(column.table) WHERE \(value) IN (SELECT name FROM spelling_candidates)\(and(column))"
    }

    /// Renames every spelling of `spelling_renames` in `column`.
    package static func rename(_ column: StoredNameColumn) -> String {
        let (table, value) = (column.table, column.column)
        return """
            UPDATE \(table) SET \(value) = (SELECT nfc FROM spelling_renames WHERE stored = \(table).\(value)) \
            WHERE \(value) IN (SELECT stored FROM spelling_renames)\(and(column))
            """
    }

    /// What to do with one domain's spellings that are not NFC.
    package struct Plan: Sendable {
        /// Spellings to rename, each to its NFC form.
        package var renames: [(stored: String, nfc: String)]
        /// Spellings kept as stored.
        package var kept: [LegacySpelling]
    }

    /// The plan for `domain`, given its stored spellings that are not NFC and which of their NFC forms are stored
    /// too (compared byte for byte, as the databases compare).
    package static func plan(_ domain: NameDomain, unnormalized: Set<ExactText>, storedNFC: Set<ExactText>) -> Plan {
        var byNFC: [ExactText: [String]] = [:]
        for spelling in unnormalized {
            byNFC[ExactText(CanonicalText.nfc(spelling.text)), default: []].append(spelling.text)
        }
        var plan = Plan(renames: [], kept: [])
        for (nfc, spellings) in byNFC.sorted(by: { $0.key.text.utf8.lexicographicallyPrecedes($1.key.text.utf8) }) {
            let ordered = spellings.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            var rest = ordered[...]
            if !storedNFC.contains(nfc), let first = rest.popFirst() {
                plan.renames.append((first, nfc.text))
            }
            plan.kept += rest.map { LegacySpelling(domain: domain.rawValue, stored: $0, nfc: nfc.text) }
        }
        return plan
    }

    /// Whether `value` is stored in a spelling other than NFC.
    package static func isUnnormalized(_ value: String) -> Bool {
        !CanonicalText.nfc(value).utf8.elementsEqual(value.utf8)
    }

    /// Logs the spellings kept, once, as a warning; nothing when none was kept.
    package static func warn(_ kept: [LegacySpelling], logger: Logger = Logger(label: "pushtally.store")) {
        guard !kept.isEmpty else { return }
        logger.warning("\(warning(kept))")
    }

    /// What ``warn(_:logger:)`` and `serve` at start say of the spellings kept.
    package static func warning(_ kept: [LegacySpelling]) -> String {
        let listed = kept.prefix(10).map { "\($0.domain) \(escaped($0.stored))" }.joined(separator: ", ")
        let more = kept.count > 10 ? ", …" : ""
        return "\(kept.count) stored names are kept in a spelling other than NFC because their NFC spelling names other "
            + "rows; they stay apart and only the NFC spelling is matched (table legacy_spellings): \(listed)\(more)"
    }

    /// A spelling with its non-ASCII scalars escaped, so a log shows two spellings that render alike apart.
    package static func escaped(_ text: String) -> String {
        text.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
    }
}
