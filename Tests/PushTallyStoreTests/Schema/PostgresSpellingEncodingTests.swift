import Foundation
import PushTallyCore
@testable import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// PostgreSQL normalizes text only in a UTF8 database: in any other the spelling migration reads every distinct
/// name and finds the spellings itself, with the same outcome.
@Suite struct PostgresSpellingEncodingTests {
    @Test func aDatabaseThatIsNotUTF8IsMigratedTheSameWay() async throws {
        try await FreshStore.with(.postgres, name: "encoding") { fresh in
            let (url, secret) = (fresh.database, fresh.secretPath)
            let name = try PostgresURL(url).database
            try await TestPostgres.administer("DROP DATABASE \(name)")
            try await TestPostgres.administer(
                "CREATE DATABASE \(name) ENCODING 'SQL_ASCII' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'")
            // The schema before the spelling migration, written to as the older version did.
            let old = try await PostgresStore(
                url: url, deviceSecretPath: secret, maximumConnections: 2,
                migrationLimits: PostgresSchema.Limits(skipping: [SpellingMigration.postgresVersion]))
            #expect(try await old.column("SHOW server_encoding") == ["SQL_ASCII"])
            try await SpellingMigrationTests.writeLegacyNames(old)
            try await SpellingMigrationTests.writeCollidingNames(old)
            let expected = try await SpellingMigrationTests.Reported.read(old, rename: SpellingMigrationTests.migrated)
            await old.shutdown()

            let store = try await PostgresStore(url: url, deviceSecretPath: secret, maximumConnections: 2)
            defer { store.closeInBackground() }
            #expect(SpellingMigrationTests.sameSpellings(try await store.legacySpellings(), SpellingMigrationTests.kept))
            let left = try await SpellingMigrationTests.unnormalized(store)
            let kept = SpellingMigration.escaped(SpellingMigrationTests.collidingNFD)
            #expect(!left.isEmpty && left.allSatisfy { $0.hasPrefix("push_id ") && $0.hasSuffix(kept) }, "\(left)")
            #expect(try await SpellingMigrationTests.Reported.read(store) == expected)
        }
    }
}
