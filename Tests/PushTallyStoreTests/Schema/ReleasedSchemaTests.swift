import Foundation
import GRDB
import PostgresNIO
import PushTallyCore
@testable import PushTallyPostgres
import PushTallySQLite
import PushTallyTestSupport
import Testing

/// Released migrations keep the DDL they shipped with, on both engines: a database migrated from the schema of
/// every released version ends with the schema of a fresh one (tables, columns with their types, defaults and
/// nullability, indexes, PostgreSQL's functions), and a fresh database's rollup tables hold exactly the columns
/// their declarations (``RollupTable``) name, so a column declared without its migration fails here.
@Suite struct ReleasedSchemaTests {
    // MARK: SQLite

    /// One line per column and per index of every table but the migrator's own.
    static func schema(_ db: Database) throws -> [String] {
        var lines: [String] = []
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'grdb_migrations' ORDER BY name")
        for table in tables {
            for row in try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))") {
                let (name, type, notNull, value, key): (String, String, Bool, String?, Int) =
                    (row["name"], row["type"], row["notnull"], row["dflt_value"], row["pk"])
                lines.append("\(table).\(name) \(type.uppercased()) \(notNull ? "NOT NULL" : "NULL") DEFAULT \(value ?? "-") KEY \(key)")
            }
            let withoutRowID = try Bool.fetchOne(
                db, sql: "SELECT sql LIKE '%WITHOUT ROWID' FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table]) ?? false
            lines.append("\(table) \(withoutRowID ? "WITHOUT ROWID" : "ROWID")")
        }
        lines += try String.fetchAll(
            db, sql: "SELECT tbl_name || ' ' || name || ': ' || coalesce(sql, '(key)') FROM sqlite_master WHERE type = 'index' ORDER BY name")
        return lines
    }

    private static func sqliteSchema(upTo version: String?) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-schema-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        if let version { try Migrations.migrator.migrate(queue, upTo: version) }
        try Migrations.migrator.migrate(queue)
        return try queue.read(Self.schema)
    }

    @Test func sqliteDatabasesMigratedFromEachReleasedVersionMatchAFreshOne() throws {
        let fresh = try Self.sqliteSchema(upTo: nil)
        let versions = Migrations.migrator.migrations
        #expect(versions.count > 10)
        for version in versions.dropLast() {
            let migrated = try Self.sqliteSchema(upTo: version)
            #expect(migrated == fresh, "migrated from \(version): \(Self.difference(migrated, fresh))")
        }
    }

    @Test func sqliteRollupTablesHoldTheirDeclaredColumns() throws {
        let fresh = Set(try Self.sqliteSchema(upTo: nil))
        for table in RollupTable.allCases {
            for target in [RollupTarget.rollups, .ledger] {
                let name = table.name(in: target)
                let stored = fresh.filter { $0.hasPrefix(name + ".") }.map { $0.components(separatedBy: " KEY ")[0] }
                let declared = (table.key + table.values).map { column in
                    "\(name).\(column.name) \(SQLDialect.sqlite.type(column.type)) NOT NULL DEFAULT \(column.defaultsToZero ? "0" : "-")"
                }
                #expect(Set(stored) == Set(declared), "\(name): \(Self.difference(stored, declared))")
            }
        }
    }

    // MARK: PostgreSQL

    /// One line per column, index and function of the database's own schema.
    private static func postgresSchema(on connection: PostgresConnection, logger: Logger) async throws -> [String] {
        var lines: [String] = []
        let columns = try await connection.query(
            """
            SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' DEFAULT '
                || coalesce(column_default, '-') || ' IDENTITY ' || is_identity
            FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
            """, logger: logger)
        for try await line in columns.decode(String.self) { lines.append(line) }
        let indexes = try await connection.query(
            "SELECT tablename || ' ' || indexname || ': ' || indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname",
            logger: logger)
        for try await line in indexes.decode(String.self) { lines.append(line) }
        let functions = try await connection.query(
            """
            SELECT p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' FROM pg_proc p
            JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' ORDER BY 1
            """, logger: logger)
        for try await line in functions.decode(String.self) { lines.append(line) }
        return lines
    }

    /// The schema of the database at `url` after migrating it from empty, first through `version` when given.
    private static func postgresSchema(_ url: PostgresURL, through version: Int?, now: Int64) async throws -> [String] {
        let logger = Logger(label: "pushtally.test-schema")
        var lines: [String] = []
        try await TestPostgres.withConnection(to: url) { connection, logger in
            try await connection.query("DROP SCHEMA public CASCADE", logger: logger)
            try await connection.query("CREATE SCHEMA public", logger: logger)
        }
        if let version { try await PostgresSchema.migrate(url, nowMillis: now, limits: .init(through: version), logger: logger) }
        try await PostgresSchema.migrate(url, nowMillis: now, logger: logger)
        try await TestPostgres.withConnection(to: url) { connection, logger in
            lines = try await Self.postgresSchema(on: connection, logger: logger)
        }
        return lines
    }

    @Test func postgresDatabasesMigratedFromEachReleasedVersionMatchAFreshOneAndTheDeclarations() async throws {
        try await TestPostgres.withDatabase { text in
            let url = try PostgresURL(text)
            let now = StoreConfiguration.systemClock()
            let fresh = try await Self.postgresSchema(url, through: nil, now: now)
            let versions = PostgresSchema.migrations.map(\.version)
            #expect(versions.count > 10)
            for version in versions.dropLast() {
                let migrated = try await Self.postgresSchema(url, through: version, now: now)
                #expect(migrated == fresh, "migrated from version \(version): \(Self.difference(migrated, fresh))")
            }
            for table in RollupTable.allCases {
                for target in [RollupTarget.rollups, .ledger] {
                    let name = table.name(in: target)
                    let stored = fresh.filter { $0.hasPrefix(name + ".") }.map { $0.components(separatedBy: " IDENTITY ")[0] }
                    let shard = SQLDialect.postgres.shards(target) ? ["\(name).shard bigint NO DEFAULT 0"] : []
                    let declared = (table.key + table.values).map { column in
                        "\(name).\(column.name) \(SQLDialect.postgres.type(column.type).lowercased()) NO DEFAULT \(column.defaultsToZero ? "0" : "-")"
                    } + shard
                    #expect(Set(stored) == Set(declared), "\(name): \(Self.difference(stored, declared))")
                }
            }
        }
    }

    // MARK: The schemas released versions shipped

    /// Each released version's schema as recorded when it was released (`Fixtures/released-schemas`): today's
    /// migrations up to that version's last must still build exactly it, so an edit to a released migration
    /// (which databases already migrated past it will never run) fails here rather than in the field.
    /// Recording a release's schemas: `PUSHTALLY_RECORD_RELEASED_SCHEMA=<version> swift test --filter
    /// ReleasedSchemaTests`, then commit the two files.
    @Test func releasedMigrationsStillBuildTheSchemasTheyShipped() async throws {
        let folder = PackageRoot.file("Tests/PushTallyStoreTests/Fixtures/released-schemas")
        if let version = ProcessInfo.processInfo.environment["PUSHTALLY_RECORD_RELEASED_SCHEMA"] {
            try await Self.record(version, in: folder)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".txt") }.sorted()
        // The version being built is released with its schemas: a new VERSION needs them recorded.
        let version = try String(contentsOf: PackageRoot.file("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            files.contains("\(version)-sqlite.txt") && files.contains("\(version)-postgres.txt"),
            "no recorded schemas of \(version) in \(files): PUSHTALLY_RECORD_RELEASED_SCHEMA=\(version) swift test --filter ReleasedSchemaTests")
        // A migration the tree holds past the version's recorded last belongs to the next version: VERSION moves.
        let newest = ["sqlite": Migrations.migrator.migrations.last ?? "", "postgres": PostgresSchema.migrations.last.map { "\($0.version)" } ?? ""]
        for file in files {
            let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").map(String.init)
                .drop { $0.hasPrefix(Self.generated) }
            guard let header = lines.first, header.hasPrefix("# through ") else {
                Issue.record("\(file) does not start with its last migration")
                continue
            }
            let through = String(header.dropFirst("# through ".count))
            for (engine, last) in newest where file == "\(version)-\(engine).txt" {
                #expect(
                    through == last,
                    "\(file) runs through \(through), the tree through \(last): the new migrations are the next version's; move VERSION and record it")
            }
            let recorded = Array(lines.dropFirst())
            let built = file.hasSuffix("-sqlite.txt")
                ? try Self.sqliteSchema(through: through) : try await Self.postgresSchema(through: Int(through) ?? -1)
            if built != recorded { Issue.record("\(file): a released migration changed: \(Self.difference(built, recorded))") }
        }
    }

    private static func sqliteSchema(through version: String) throws -> [String] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-released-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try Migrations.migrator.migrate(queue, upTo: version)
        return try queue.read(Self.schema)
    }

    /// PostgreSQL's schema through `version`, without the day partitions of `events` (their names are dates).
    private static func postgresSchema(through version: Int) async throws -> [String] {
        try await TestPostgres.withDatabase { text in
            let url = try PostgresURL(text)
            let logger = Logger(label: "pushtally.test-schema")
            try await PostgresSchema.migrate(url, nowMillis: StoreConfiguration.systemClock(), limits: .init(through: version), logger: logger)
            var lines: [String] = []
            try await TestPostgres.withConnection(to: url) { connection, logger in
                lines = try await Self.postgresSchema(on: connection, logger: logger)
            }
            return lines.filter { $0.range(of: #"events_p[0-9]"#, options: .regularExpression) == nil }
        }
    }

    private static func record(_ version: String, in folder: URL) async throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sqliteLast = try #require(Migrations.migrator.migrations.last)
        let postgresLast = try #require(PostgresSchema.migrations.last?.version)
        let sqlite = try sqliteSchema(through: sqliteLast)
        let postgres = try await postgresSchema(through: postgresLast)
        let note = "\(generated) `PUSHTALLY_RECORD_RELEASED_SCHEMA=\(version) swift test --filter ReleasedSchemaTests`; never edited"
        try ([note, "# through \(sqliteLast)"] + sqlite).joined(separator: "\n").appending("\n")
            .write(to: folder.appendingPathComponent("\(version)-sqlite.txt"), atomically: true, encoding: .utf8)
        try ([note, "# through \(postgresLast)"] + postgres).joined(separator: "\n").appending("\n")
            .write(to: folder.appendingPathComponent("\(version)-postgres.txt"), atomically: true, encoding: .utf8)
    }

    /// The first line of a recorded file, saying how it was made.
    private static let generated = "# Generated by"

    /// The lines only one side has, for a failure's message.
    static func difference(_ left: [String], _ right: [String]) -> String {
        let (only, other) = (Set(left).subtracting(right), Set(right).subtracting(left))
        return "only here: \(only.sorted()); only in the other: \(other.sorted())"
    }
}
