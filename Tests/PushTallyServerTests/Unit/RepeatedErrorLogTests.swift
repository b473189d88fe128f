import Foundation
import Logging
@testable import PushTallyServer
import Testing

/// An error repeated by every refused request is logged when it starts, then once per interval with how many
/// times it recurred, never once per request.
@Suite struct RepeatedErrorLogTests {
    /// Lines logged, kept in memory.
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [(message: String, metadata: Logger.Metadata)] = []

        var all: [(message: String, metadata: Logger.Metadata)] { lock.withLock { lines } }
        func append(_ message: String, _ metadata: Logger.Metadata) { lock.withLock { lines.append((message, metadata)) } }
    }

    struct Handler: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.append("\(event.message)", event.metadata ?? [:])
        }
    }

    @Test func theFirstIsLoggedThenOneSummaryPerInterval() async throws {
        let lines = Lines()
        let logger = Logger(label: "test.repeated") { _ in Handler(lines: lines) }
        let log = RepeatedErrorLog(interval: .milliseconds(300))
        for _ in 0..<1_000 { log.error("storage unavailable", metadata: ["error": "disk full"], logger: logger) }
        log.error("database unavailable", metadata: [:], logger: logger)
        #expect(lines.all.map(\.message) == ["storage unavailable", "database unavailable"], "each kind once")
        #expect(lines.all.first?.metadata["suppressed"] == nil)

        try await Task.sleep(for: .milliseconds(400))
        log.error("storage unavailable", metadata: ["error": "disk full"], logger: logger)
        let summary = try #require(lines.all.last)
        #expect(summary.message == "storage unavailable")
        #expect(summary.metadata["suppressed"] == "999", "the 999 left out since the first line")
        #expect(summary.metadata["error"] == "disk full")
        #expect(lines.all.count == 3)
    }
}
