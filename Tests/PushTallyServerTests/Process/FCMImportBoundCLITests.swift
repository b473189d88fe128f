import Foundation
import PushTallyTestSupport
import Testing

/// `pushtally import fcm` on the local database takes what the server takes: a file that inflates past
/// 64 MiB is refused whole (exit 5, nothing stored), before it is held in memory.
@Suite struct FCMImportBoundCLITests {
    @Test func aGzipFileInflatingPastTheBoundIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-fcm-bound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bomb = directory.appendingPathComponent("bomb.json.gz").path
        let made = try await runProcess("/bin/sh", ["-c", "head -c 70000000 /dev/zero | tr '\\\\0' '\\\\n' | gzip -c > '\(bomb)' && echo ok"])
        try #require(made.output == "ok\n", "\(made.output)")
        let database = directory.appendingPathComponent("pushtally.sqlite").path
        let run = try await runPushtally(["import", "fcm", bomb, "--database", database])
        #expect(run.status == 5, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("refused, nothing stored: larger than 64 MiB inflated"), "\(run.stdout)")
        let counted = try await runPushtally(["report", "pushes", "--database", database, "--format", "json"])
        #expect(counted.status == 0 && counted.stdout.contains("\"pushes\":[]"), "\(counted.stdout) \(counted.stderr)")
    }

    /// A directory among the files is refused by itself, saying to name the files in it; the others import.
    @Test func aDirectoryAmongTheFilesIsRefusedAndTheRestImport() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-fcm-dir-\(UUID().uuidString)")
        let exports = directory.appendingPathComponent("exports")
        try FileManager.default.createDirectory(at: exports, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("one.json")
        try #"{"message_id":"m1","instance_id":"i1","event":"MESSAGE_DELIVERED","analytics_label":"p1","sdk_platform":"ANDROID"}"#
            .write(to: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("pushtally.sqlite").path
        let run = try await runPushtally(["import", "fcm", exports.path, file.path, "--database", database])
        #expect(run.status == 5, "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("\(exports.path): refused, nothing stored: a directory, not an export file"), "\(run.stdout)")
        #expect(run.stdout.contains("\(file.path): rows 1, stored 1"), "\(run.stdout)")
    }
}
