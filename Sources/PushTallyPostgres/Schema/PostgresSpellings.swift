import Logging
import PostgresNIO
import PushTallyCore

/// PostgreSQL's run of ``SpellingMigration``, inside the migration's transaction. The scan asks the server
/// (`IS NOT NFC NORMALIZED`) where the database is UTF8, the only encoding PostgreSQL normalizes; elsewhere it
/// reads every distinct value and checks it here, with the code that puts names in NFC at the door.
enum PostgresSpellings {
    /// Renames what can be renamed and records what is kept; returns the spellings kept, to log once committed.
    static func run(on connection: PostgresConnection, logger: Logger) async throws -> [LegacySpelling] {
        func run(_ sql: String) async throws -> [PostgresRow] {
            try await connection.run(PostgresQuery(unsafeSQL: sql), logger: logger)
        }
        let encoding = try await connection.fetch(Queries.SelectServerEncoding(), logger: logger).first
        let test = encoding == "UTF8" ? "{} IS NOT NFC NORMALIZED" : "TRUE"
        for statement in SpellingMigration.createScratch(.postgres) { _ = try await run(statement) }
        let held = Set(try await connection.fetch(Queries.SelectColumnsHeld(), logger: logger))
        var kept: [LegacySpelling] = []
        for domain in NameDomain.allCases {
            // Tables and columns made by later migrations are written in NFC from the start.
            let columns = StoredNames.columns(domain).filter { held.contains("\($0.table).\($0.column)") }
            var unnormalized = Set<ExactText>()
            for column in columns {
                for row in try await run(SpellingMigration.scan(column, test: test)) {
                    let value = try row.decode(String.self)
                    if SpellingMigration.isUnnormalized(value) { unnormalized.insert(ExactText(value)) }
                }
            }
            if unnormalized.isEmpty { continue }
            for statement in SpellingMigration.clearScratch { _ = try await run(statement) }
            let candidates = Set(unnormalized.map { ExactText(CanonicalText.nfc($0.text)) }).map(\.text)
            try await connection.run(Queries.InsertSpellingCandidates(names: candidates), logger: logger)
            var storedNFC = Set<ExactText>()
            for column in columns {
                for row in try await run(SpellingMigration.present(column)) { storedNFC.insert(ExactText(try row.decode(String.self))) }
            }
            let plan = SpellingMigration.plan(domain, unnormalized: unnormalized, storedNFC: storedNFC)
            if !plan.renames.isEmpty {
                let (stored, nfc) = (plan.renames.map(\.stored), plan.renames.map(\.nfc))
                try await connection.run(Queries.InsertSpellingRenames(stored: stored, nfc: nfc), logger: logger)
                for column in columns { _ = try await run(SpellingMigration.rename(column)) }
            }
            if !plan.kept.isEmpty {
                let (domains, stored, nfc) = (plan.kept.map(\.domain), plan.kept.map(\.stored), plan.kept.map(\.nfc))
                try await connection.run(Queries.InsertLegacySpellings(domains: domains, stored: stored, nfc: nfc), logger: logger)
            }
            kept += plan.kept
        }
        return kept
    }
}
