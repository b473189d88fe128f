import Foundation
import PushTallyPostgres
import PushTallyTestSupport
import Testing

/// Every lifecycle command (keys, export, import-events, forget, prune, rollup rebuild, backup) run as an
/// operator runs it, against a SQLite file and against PostgreSQL.
@Suite(.serialized) struct LifecycleBothStoresTests {
    /// A store seeded through a real `pushtally serve`, stopped again.
    static func seeded(_ kind: StoreKind) async throws -> StoreServer {
        let store = try await StoreServer.start(kind, name: "life")
        let server = store.server
        let admin = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        _ = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/pushes/p1"), method: "PUT", headers: admin,
            body: Data(#"{"campaign":"新年促销","sent":4,"sent_at":1795000000}"#.utf8))
        let events = #"[{"push_id":"p1","device_id":"a"},{"push_id":"p1","device_id":"a"},{"push_id":"p1","device_id":"b"},{"push_id":"p2"}]"#
        #expect(try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(events.utf8)).status == 200)
        let metrics = String(decoding: try await httpRequest(server.baseURL.appendingPathComponent("metrics")).body, as: UTF8.self)
        let bytes = metrics.split(separator: "\n").first { $0.hasPrefix("pushtally_database_bytes ") }
        #expect(bytes.flatMap { Double($0.split(separator: " ").last!) }.map { $0 > 0 } == true, "database size on \(kind): \(metrics)")
        #expect(try await server.stop() == 0)
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func everyLifecycleCommandOnEveryStore(kind: StoreKind) async throws {
        let store = try await Self.seeded(kind)
        func run(_ arguments: [String]) async throws -> CommandResult {
            let result = try await runPushtally(arguments + store.arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        // Keys.
        let token = try await run(["keys", "create", "--role", "read", "--label", "ops"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        await #expect(try run(["keys", "list"]).stdout.contains("ops"))
        await #expect(try run(["keys", "revoke", token]).status == 0)
        // Export, then import into an empty store of the same engine: the same figures, and idempotent.
        let export = store.server.directory.appendingPathComponent("events.ndjson.gz").path
        await #expect(try run(["export", "--output", export]).stdout.contains("exported 4 raw events"))
        let copy = kind == .postgres ? try await TestPostgres.createDatabase() : store.server.directory.appendingPathComponent("copy.sqlite").path
        let copyArguments = ["--database", copy] + (kind == .postgres ? ["--device-secret", store.server.directory.appendingPathComponent("copy.secret").path] : [])
        #expect(try await runPushtally(["import-events", export] + copyArguments).stdout.contains("imported 4 new"))
        #expect(try await runPushtally(["import-events", export] + copyArguments).stdout.contains("imported 0 new, skipped 4"))
        // Exports carry raw events, not registrations: the copy's pushes are orphans with the same counts.
        func counts(_ json: String) -> [String: [Int]] {
            let rows = ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?["pushes"] as? [[String: Any]] ?? []
            return Dictionary(uniqueKeysWithValues: rows.map { row in
                (row["push_id"] as? String ?? "", ["displayed", "duplicates", "displayed_unique"].map { row[$0] as? Int ?? -1 })
            })
        }
        let original = await counts(try run(["report", "pushes", "--format", "json"]).stdout)
        #expect(original.count == 2 && original["p1"] == [3, 1, 2])
        #expect(counts(try await runPushtally(["report", "pushes", "--format", "json"] + copyArguments).stdout) == original)
        if kind == .postgres { await TestPostgres.dropDatabase(copy) }
        // Forget one device, prune the rest, rebuild: reports never change.
        let before = try await run(["report", "campaigns", "--format", "json"]).stdout
        await #expect(try run(["forget", "--device", "a"]).stdout.contains("forgot 2 raw events"))
        await #expect(try run(["prune", "--older-than", "0s"]).stdout.contains("pruned 2 raw events"))
        await #expect(try run(["rollup", "rebuild"]).stdout.contains("from 0 raw events"))
        await #expect(try run(["report", "campaigns", "--format", "json"]).stdout == before)
        // Backup: SQLite copies its file; PostgreSQL is refused (64) with the pg_dump command to use instead.
        let backup = store.server.directory.appendingPathComponent("backup.sqlite").path
        let backedUp = try await runPushtally(["backup", backup] + store.arguments)
        if kind == .postgres {
            #expect(backedUp.status == 64)
            #expect(backedUp.stderr.contains("pg_dump --format=custom --file=\(backup) 'postgres://"), "\(backedUp.stderr)")
            #expect(!backedUp.stderr.contains(":pushtally@"), "no password on a command line")
        } else {
            #expect(backedUp.status == 0 && FileManager.default.fileExists(atPath: backup), "\(backedUp.stderr)")
        }
        await store.cleanUp()
    }
}
