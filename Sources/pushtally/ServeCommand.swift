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

    @OptionGroup var readReplica: ReadReplicaOptions

    @OptionGroup var overload: OverloadOptions

    @OptionGroup var writers: WriterOptions

    @Flag(help: "Require an ingest token on receipts, actions, sessions and conversions (Authorization: Bearer, or ?key=).")
    var requireIngestKey = false

    @Option(help: "Largest request body in bytes, before and after gzip inflation.")
    var maxBodyBytes = 4 << 20

    @Option(help: "Seconds an idle or stalled connection is kept open.")
    var idleTimeout = 30

    @Option(help: "Bytes a second a request body must arrive at on average, after --idle-timeout's grace.")
    var minBodyRate = 500

    @Option(help: "Seconds a request may take from its head to its last byte, however steadily it arrives.")
    var bodyTimeout = 60

    @Option(help: "Most open connections; at the limit a new one closes the connection idle the longest (busy ones are never closed).")
    var maxConnections = 8192

    @Option(help: "Days of raw events to keep (pruned hourly; counts stay in rollups); 0 keeps them forever.")
    var retentionDays = 90

    @Option(help: "Ingest requests (receipts, actions, sessions, conversions) per second per client IP (429 + Retry-After beyond it); off by default.")
    var ingestRateLimit: Double?

    @Option(help: "Requests a client may send at once under --ingest-rate-limit (default: twice the rate).")
    var ingestBurst: Double?

    @Option(help: "PEM certificate chain file: serve HTTPS (with --tls-key).")
    var tlsCert: String?

    @Option(help: "PEM private key file for --tls-cert.")
    var tlsKey: String?

    @Option(help: "A reverse proxy's address whose X-Forwarded-For is trusted (repeatable).")
    var trustedProxy: [String] = []

    @Option(
        help: ArgumentHelp(
            "A web origin (e.g. https://www.example.com) whose pages and service workers may post receipts, actions, sessions and conversions (CORS; repeatable; env PUSHTALLY_CORS_ORIGINS, comma-separated). Once any is listed, a request from any other origin gets 403.",
            valueName: "origin"))
    var corsOrigin: [String] = []

    @Flag(
        inversion: .prefixedNo,
        help: "Answer ingest requests (receipts, actions, sessions, conversions) on the event loop (the fast path); --no-fast-path routes them like every other request, to compare.")
    var fastPath = true

    @Flag(help: "Let webhook URLs reach loopback, private, link-local and other special-purpose addresses (refused by default: SSRF).")
    var allowPrivateWebhooks = false

    @Option(help: "Seconds between alert evaluations.")
    var alertInterval: Double = 60

    @Option(help: "Seconds between counts of the devices' states (the pushtally_devices gauges, device.gone webhooks).")
    var deviceGaugeInterval: Double = 300

    @Option(help: "Delay before the first retry of a failed webhook delivery; each later one doubles it (up to 1h).")
    var webhookRetryBase = "5s"

    @Option(help: "How long a failing webhook delivery is retried before it is given up and its endpoint marked failing.")
    var webhookRetryWindow = "24h"

    @Option(help: "Delivered and given-up webhook messages are deleted after this long.")
    var webhookRetention = "7d"

    @Option(
        help: "Custom action ids each app may have as report columns; later ids count as `other` (env PUSHTALLY_MAX_ACTION_IDS; default 64).")
    var maxActionIds: Int?

    @Option(
        help: "Platforms besides ios, android and web each app may have as report rows; later ones count as `other` (env PUSHTALLY_MAX_PLATFORMS; default 16).")
    var maxPlatforms: Int?

    @Option(
        help: "App versions, and apart from them OS versions, each app may have as report rows; later ones count as `other` (env PUSHTALLY_MAX_VERSIONS; default 1000).")
    var maxVersions: Int?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical (env PUSHTALLY_LOG_LEVEL).")
    var logLevel: String?

    func run() async throws {
        var logger = Logger(label: "pushtally")
        logger.logLevel = (logLevel ?? environment("PUSHTALLY_LOG_LEVEL")).flatMap(Logger.Level.init(rawValue:)) ?? .info
        let portValue = try port ?? environment("PUSHTALLY_PORT").map { value in
            guard let port = Int(value) else { throw ValidationError("PUSHTALLY_PORT must be a number, not \(value)") }
            return port
        } ?? 8080
        var configuration = ServerConfiguration(
            host: host ?? environment("PUSHTALLY_HOST") ?? "127.0.0.1",
            port: portValue,
            requireIngestKey: requireIngestKey,
            maxBodyBytes: maxBodyBytes,
            idleTimeoutSeconds: idleTimeout,
            maxConnections: maxConnections,
            retentionMillis: retentionDays > 0 ? Int64(retentionDays) * 86_400_000 : nil
        )
        if let rate = ingestRateLimit {
            guard rate > 0 else { throw ValidationError("--ingest-rate-limit must be positive") }
            configuration.ingestRateLimit = RateLimiter.Limit(ratePerSecond: rate, burst: max(1, ingestBurst ?? rate * 2))
        }
        guard (1...1_000_000_000).contains(minBodyRate) else { throw ValidationError("--min-body-rate must be from 1 to 1000000000 bytes a second") }
        guard (1...86_400).contains(bodyTimeout) else { throw ValidationError("--body-timeout must be from 1 to 86400 seconds") }
        configuration.minBodyBytesPerSecond = minBodyRate
        configuration.bodyTimeoutSeconds = bodyTimeout
        configuration.trustedProxies = trustedProxy
        configuration.cors = try corsPolicy()
        configuration.maxReadLagSeconds = try readReplica.maxLagSeconds()
        configuration.ingestFastPath = fastPath
        configuration.allowPrivateWebhooks = allowPrivateWebhooks
        guard alertInterval >= 0.1, alertInterval <= 86_400 else {
            throw ValidationError("--alert-interval takes seconds from 0.1 to 86400")
        }
        configuration.alertIntervalSeconds = alertInterval
        guard deviceGaugeInterval >= 0.1, deviceGaugeInterval <= 86_400 else {
            throw ValidationError("--device-gauge-interval takes seconds from 0.1 to 86400")
        }
        configuration.deviceGaugeIntervalSeconds = deviceGaugeInterval
        configuration.webhookRetry = WebhookRetryPolicy(
            baseDelayMillis: try durationMillis(webhookRetryBase, flag: "webhook-retry-base"),
            windowMillis: try durationMillis(webhookRetryWindow, flag: "webhook-retry-window"))
        configuration.webhookRetentionMillis = try durationMillis(webhookRetention, flag: "webhook-retention")
        switch (tlsCert, tlsKey) {
        case (let cert?, let key?): configuration.tls = (cert, key)
        case (nil, nil): break
        default: throw ValidationError("--tls-cert and --tls-key go together")
        }
        configuration.maxIngestInFlight = try overload.ingestInFlightBound()
        let commitTimeout = try overload.commitTimeoutDuration()
        configuration.storeDeadlines = try overload.storeDeadlines()
        try readReplica.check(database: database)
        let store = try await database.open(
            mustExist: false, needsDeviceSecret: true, nameBounds: try nameBounds(), commitTimeout: commitTimeout,
            writers: try writers.count(for: database))
        let replica = try await readReplica.open(primary: database)
        // Said at every start, not only at the upgrade that found them: they stay apart until someone acts.
        let kept = try await store.legacySpellings()
        if !kept.isEmpty { logger.warning("\(SpellingMigration.warning(kept))") }
        if let token = try await store.bootstrapAdminToken(label: "created by first serve") {
            say("No tokens in \(store.location) yet; created an admin token (shown once, keep it):")
            say("PUSHTALLY_TOKEN=\(token)")
        }
        let host = configuration.host
        let scheme = configuration.tls == nil ? "http" : "https"
        let app = try orExit("cannot load the TLS certificate or key") {
            try buildApplication(configuration: configuration, store: store, readReplica: replica, logger: logger) { port in
                let reports = replica.map { ", reports from \($0.location)" } ?? ""
                say("PushTally listening on \(scheme)://\(host):\(port) (database \(store.location)\(reports))")
            }
        }
        try await runCollector(app, logger: logger)
    }
}

extension ServeCommand {
    /// `--cors-origin`, or else `PUSHTALLY_CORS_ORIGINS`; each must be an origin as a browser sends it.
    func corsPolicy() throws -> CORSPolicy {
        let origins = corsOrigin.isEmpty
            ? (environment("PUSHTALLY_CORS_ORIGINS") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            : corsOrigin
        for origin in origins where !CORSPolicy.isSerializedOrigin(origin) {
            throw ValidationError(
                "--cors-origin (and PUSHTALLY_CORS_ORIGINS) takes origins as browsers send them, scheme and host in lower case with an optional port and nothing after (https://www.example.com), not \(origin)")
        }
        return CORSPolicy(origins: origins)
    }
}

/// Writes a line to stdout at once (no buffering), so supervisors and tests see it while the server runs.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Runs `body`, turning its error into a message on stderr and exit code 4.
private func orExit<Value>(_ message: String, _ body: () throws -> Value) throws -> Value {
    do {
        return try body()
    } catch {
        printError("\(message): \(error)")
        throw Exit.storeFailure
    }
}
