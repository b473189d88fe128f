import Foundation
import GRDB
import PushTallyTestSupport
import Testing

@testable import PushTallyKit

/// The built PushTallyKitAppender helper: beside `pushtally` or the test bundle in the build folder.
func kitAppenderBinary() throws -> URL {
    var folders = [try pushtallyBinary().deletingLastPathComponent()]
    folders += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
    let candidates = folders.map { $0.appendingPathComponent("PushTallyKitAppender") }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw TestFailure("PushTallyKitAppender not found (build with `swift build --build-tests`); looked in \(candidates.map(\.path))")
    }
    return found
}

@Suite struct TwoProcessOutboxTests {
    /// The extension and the app are two OS processes appending to one outbox directory at the same time
    /// (each recording through the public API while the collector is unreachable); one flush afterwards sends
    /// every event, and the collector stores each exactly once.
    @Test func twoProcessesAppendAtOnceThenEveryEventIsSentOnce() async throws {
        let store = try temporaryStore()
        let barrier = try temporaryStore()
        defer {
            try? FileManager.default.removeItem(at: store)
            try? FileManager.default.removeItem(at: barrier)
        }
        let perProcess = 100
        let tags = ["extension", "app"]
        let unreachable = "http://127.0.0.1:\(refusingLoopbackPort)"
        var processes: [ChildProcess] = []
        defer { for process in processes where process.isRunning { process.terminate() } }
        for tag in tags {
            let process = ChildProcess()
            process.executableURL = try kitAppenderBinary()
            process.arguments = [store.path, unreachable, tag, String(perProcess), barrier.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            processes.append(process)
        }
        // Both are started and waiting: release them together so their appends overlap.
        for (tag, process) in zip(tags, processes) {
            try await process.waitUntilReady("the \(tag) appender") {
                FileManager.default.fileExists(atPath: barrier.appendingPathComponent("ready-\(tag)").path)
            }
        }
        try #require(FileManager.default.createFile(atPath: barrier.appendingPathComponent("go").path, contents: nil))
        // Each ends on its own once its appends are done, however long a busy machine makes that.
        for process in processes { await process.waitUntilExit() }
        #expect(processes.map(\.terminationStatus) == [0, 0])

        let outbox = try Outbox(root: store)
        #expect(outbox.names().count == 2 * perProcess)
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let client = try PushTallyClient(endpoint: server.baseURL, storeDirectory: store, configuration: kitConfiguration())
        try await Task.sleep(for: .milliseconds(100))  // past the helpers' (tiny) backoff
        let report = await client.flush()
        #expect(report.sent == 2 * perProcess)
        #expect(report.pending == 0 && report.dropped == 0 && report.rejected == 0)
        #expect(try await server.stop() == 0)

        let rows = try storedEvents(server.databasePath)
        let pushIDs = rows.map { $0["push_id"] as String }
        let expected = tags.flatMap { tag in (0..<perProcess).map { "\(tag)-\($0)" } }
        #expect(pushIDs.sorted() == expected.sorted())  // each exactly once: none lost, none doubled
        #expect(rows.allSatisfy { $0["duplicate"] == false })
        #expect(Set(rows.map { $0["receipt_id"] as String }).count == 2 * perProcess)
        // Both processes read the one install id, however they raced to create it.
        #expect(Set(rows.map { $0["device_id"] as String }).count == 1)
    }
}
