import Foundation
import PushTallyTestSupport
import Testing

/// A database file the user may not read and write, or in a folder it may not enter, is reported as that
/// (permission denied, with the path, exit 4), not as a database that does not exist (exit 3).
@Suite struct PermissionDeniedCLITests {
    /// Root reads everything, so the command runs as `nobody` (`setpriv`), on a file and a folder root owns.
    @Test(.enabled(if: geteuid() == 0, "needs root to run the command as another user"))
    func aFileThatCannotBeReadSaysPermissionDenied() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-denied-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("pushtally.sqlite").path
        #expect(try await runPushtally(["keys", "create", "--role", "read", "--database", database]).status == 0)

        // Readable by everyone but writable only by root: the store needs both.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: database)
        try await expectDenied(database)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: database)
        try await expectDenied(database)
        // A folder it cannot enter: the file cannot even be looked at.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory.path)
        try await expectDenied(database)
        // A path that is not there is still "no database" (exit 3).
        let missing = try await asNobody(["report", "campaigns", "--database", "/tmp/pushtally-missing-\(UUID().uuidString)/db.sqlite"])
        #expect(missing.status == 3)
        #expect(missing.output.contains("no database at"), "\(missing.output)")
    }

    private func expectDenied(_ database: String) async throws {
        let result = try await asNobody(["report", "campaigns", "--database", database])
        #expect(result.status == 4, "\(result.output)")
        #expect(result.output.contains("permission denied") && result.output.contains(database), "\(result.output)")
    }

    private func asNobody(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await runProcess(
            "/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", try pushtallyBinary().path] + arguments,
            includingErrors: true)
    }
}
