import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PushTallyCore
import PushTallyServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the collector: ingest, push registration and reports over HTTP.",
        discussion: "SIGTERM or SIGINT stops accepting, commits everything acknowledged, and exits 0."
    )

    @Option(help: "Address to listen on (env PUSHTALLY_HOST; default 127.0.0.1).")
    var host: String?

    @Option(help: "Port to listen on, 0 for any free port (env PUSHTALLY_PORT; default 8080).")
    var port: Int?

    @OptionGroup var database: DatabaseOptions

    @Flag(help: "Require an ingest token on receipts and actions (Authorization: Bearer, or ?key=).")
    var requireIngestKey = false

    @Option(help: "Largest request body in bytes, before and after gzip inflation.")
    var maxBodyBytes = 4 << 20

    @Option(help: "Seconds an idle or stalled connection is kept open.")
    var idleTimeout = 30

    @Option(help: "Most open connections; beyond it new ones wait until others close.")
    var maxConnections = 8192

    @Option(help: "Days of raw events to keep (pruned hourly; counts stay in rollups); 0 keeps them forever.")
    var retentionDays = 90

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env PUSHTALLY_LOG_LEVEL).")
    var logLevel: String?

    func run() async throws {
        var logger = Logger(label: "pushtally")
        logger.logLevel = (logLevel ?? environment("PUSHTALLY_LOG_LEVEL")).flatMap(Logger.Level.init(rawValue:)) ?? .info
        let portValue = try port ?? environment("PUSHTALLY_PORT").map { value in
            guard let port = Int(value) else { throw ValidationError("PUSHTALLY_PORT must be a number, not \(value)") }
            return port
        } ?? 8080
        let configuration = ServerConfiguration(
            host: host ?? environment("PUSHTALLY_HOST") ?? "127.0.0.1",
            port: portValue,
            requireIngestKey: requireIngestKey,
            maxBodyBytes: maxBodyBytes,
            idleTimeoutSeconds: idleTimeout,
            maxConnections: maxConnections,
            retentionMillis: retentionDays > 0 ? Int64(retentionDays) * 86_400_000 : nil
        )
        let store = try database.open()
        if try await !store.hasActiveTokens() {
            let (token, _) = try await store.createToken(role: .admin, label: "created by first serve")
            say("No tokens in \(store.path) yet; created an admin token (shown once, keep it):")
            say("PUSHTALLY_TOKEN=\(token)")
        }
        let app = buildApplication(configuration: configuration, store: store, logger: logger) { port in
            say("PushTally listening on http://\(configuration.host):\(port) (database \(store.path))")
        }
        try await app.runService()
    }
}

/// Writes a line to stdout at once (no buffering), so supervisors and tests see it while the server runs.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
