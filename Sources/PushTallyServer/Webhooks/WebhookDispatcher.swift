import Logging
import Metrics
import NIOConcurrencyHelpers
import PushTallyCore
import PushTallyUseCases
import ServiceLifecycle

/// Delivers queued webhook messages until shutdown: packs waiting receipts and taps into messages, claims
/// what is due while fewer than ``concurrency`` attempts are in flight, sends each on its own, and stores
/// the outcomes of every round in one transaction; prunes old deliveries hourly.
///
/// Attempts run independently of the polling loop, so an endpoint that takes its full 10 s to time out
/// delays nobody else's messages. Ingest never waits for any of this; a collector that dies mid-delivery
/// leaves leases that run out, and whichever collector polls next retries those messages under their ids.
struct WebhookDispatcher: Service {
    let store: any WebhookStore
    let clock: @Sendable () -> Int64
    let configuration: ServerConfiguration
    let logger: Logger

    /// How often the dispatcher looks for work and stores finished attempts: well inside the one second a
    /// message may wait.
    static let pollInterval: Duration = .milliseconds(200)
    /// How long receipts wait to fill a batch before they are packed anyway.
    static let fillMillis: Int64 = 500
    /// Longer than an attempt (10 s) and its bookkeeping; short enough that after a crash the messages that
    /// were in flight are retried within 30 s.
    static let leaseMillis: Int64 = 25_000
    /// Attempts in flight at once.
    static let concurrency = 32

    func run() async throws {
        let sender = WebhookSender(urlGuard: WebhookURLGuard(allowPrivate: configuration.allowPrivateWebhooks))
        for name in ["delivered", "failed"] { Counter(label: "pushtally_webhook_messages_\(name)_total").increment(by: 0) }
        Counter(label: "pushtally_webhook_attempts_failed_total").increment(by: 0)
        let attempts = Attempts()
        await withDiscardingTaskGroup { group in
            var housekeeping = Housekeeping()
            // Polled rather than cancelled by the shutdown, which would also cancel the attempts' tasks mid-request.
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                do {
                    try await poll(attempts: attempts, group: &group, sender: sender, housekeeping: &housekeeping)
                } catch is CancellationError {
                    break
                } catch {
                    logger.warning("webhook dispatch failed; will retry", metadata: ["error": "\(error)"])
                }
                try? await Task.sleep(for: Self.pollInterval)
            }
            // Attempts still running are abandoned: unrecorded, they are retried once their lease is over.
            group.cancelAll()
        }
        // Bounded: a database that stopped answering must not hold the shutdown (unrecorded attempts are retried).
        let finished = attempts.takeFinished()
        _ = try? await DetachedRace.run(timeout: .seconds(5), onDeadline: { CancellationError() }) { try await record(finished) }
        await sender.shutdown()
    }

    private func poll(
        attempts: Attempts, group: inout DiscardingTaskGroup, sender: WebhookSender, housekeeping: inout Housekeeping
    ) async throws {
        try await record(attempts.takeFinished())
        let now = clock()
        _ = try await untilShutdown { [store] in try await store.packOutbox(now: now, fillMillis: Self.fillMillis) }
        let room = Self.concurrency - attempts.inFlight
        if room > 0 {
            let claimed = try await untilShutdown { [store] in
                try await store.claimDeliveries(now: now, leaseMillis: Self.leaseMillis, limit: room)
            }
            for delivery in claimed {
                attempts.start()
                group.addTask {
                    let result = await sender.send(delivery, at: clock())
                    attempts.finish(Task.isCancelled ? nil : (delivery, result, clock()))
                }
            }
        }
        try await housekeeping.run(at: now, dispatcher: self)
    }

    /// A store call a graceful shutdown cancels: on a database that stopped answering it would hold the
    /// shutdown otherwise (cancelling it closes the connection it waits on; nothing of it was acknowledged).
    private func untilShutdown<Value: Sendable>(_ call: @escaping @Sendable () async throws -> Value) async throws -> Value {
        try await cancelWhenGracefulShutdown(call)
    }

    /// Stores finished attempts in one transaction and counts them.
    private func record(_ finished: [(ClaimedDelivery, WebhookAttemptResult, Int64)]) async throws {
        guard !finished.isEmpty else { return }
        let recorded = finished.map { delivery, result, at in
            RecordedAttempt(
                delivery: delivery, update: DeliveryUpdate(result, of: delivery, at: at, policy: configuration.webhookRetry), at: at)
        }
        do {
            try await store.recordAttempts(recorded)
        } catch {
            // Their leases run out and the messages are sent again: at least once, never lost.
            logger.warning("could not record webhook attempts", metadata: ["error": "\(error)", "count": "\(recorded.count)"])
            throw error
        }
        for attempt in recorded { count(attempt) }
    }

    private func count(_ attempt: RecordedAttempt) {
        let update = attempt.update
        guard update.status != .delivered else {
            return Counter(label: "pushtally_webhook_messages_delivered_total").increment()
        }
        Counter(label: "pushtally_webhook_attempts_failed_total").increment()
        if update.status == .failed { Counter(label: "pushtally_webhook_messages_failed_total").increment() }
        logger.info(
            "webhook attempt failed",
            metadata: [
                "message": "\(attempt.delivery.messageID)", "endpoint": "\(attempt.delivery.endpointID)",
                "error": "\(update.error ?? "")", "outcome": "\(update.status.rawValue)",
            ])
    }

    /// The oldest-undelivered gauge (each second) and pruning (each hour).
    struct Housekeeping {
        var gaugedAt: Int64 = 0
        var prunedAt: Int64 = 0

        mutating func run(at now: Int64, dispatcher: WebhookDispatcher) async throws {
            if now - gaugedAt >= 1000 {
                gaugedAt = now
                let (_, oldest) = try await dispatcher.store.undelivered()
                Gauge(label: "pushtally_webhook_oldest_undelivered_seconds").record(Double(oldest.map { max(0, now - $0) } ?? 0) / 1000)
            }
            if now - prunedAt >= 3_600_000 {
                prunedAt = now
                let cutoff = now - dispatcher.configuration.webhookRetentionMillis
                let pruned = try await dispatcher.store.pruneDeliveries(createdBefore: cutoff)
                if pruned > 0 { dispatcher.logger.info("pruned old webhook deliveries", metadata: ["count": "\(pruned)"]) }
            }
        }
    }
}

/// Attempts in flight, and those finished but not yet stored.
private final class Attempts: Sendable {
    private let state = NIOLockedValueBox((inFlight: 0, finished: [(ClaimedDelivery, WebhookAttemptResult, Int64)]()))

    var inFlight: Int { state.withLockedValue { $0.inFlight } }

    func start() {
        state.withLockedValue { $0.inFlight += 1 }
    }

    /// `nil` for an attempt abandoned at shutdown.
    func finish(_ attempt: (ClaimedDelivery, WebhookAttemptResult, Int64)?) {
        state.withLockedValue { state in
            state.inFlight -= 1
            if let attempt { state.finished.append(attempt) }
        }
    }

    func takeFinished() -> [(ClaimedDelivery, WebhookAttemptResult, Int64)] {
        state.withLockedValue { state in
            defer { state.finished.removeAll() }
            return state.finished
        }
    }
}
