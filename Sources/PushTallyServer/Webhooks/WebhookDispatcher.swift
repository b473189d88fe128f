import Logging
import Metrics
import PushTallyCore
import ServiceLifecycle

/// Delivers queued webhook messages until shutdown: packs waiting receipts and taps into messages, claims
/// what is due, sends it (several at once), stores each outcome, and prunes old deliveries.
///
/// Ingest never waits for any of this; a collector that dies mid-delivery leaves leases that run out, and
/// whichever collector polls next retries those messages under their same ids.
struct WebhookDispatcher: Service {
    let store: any WebhookStore
    let clock: @Sendable () -> Int64
    let configuration: ServerConfiguration
    let logger: Logger

    /// How often an idle dispatcher looks for work: well inside the one second a message may wait.
    static let pollInterval: Duration = .milliseconds(200)
    /// How long receipts wait to fill a batch before they are packed anyway.
    static let fillMillis: Int64 = 500
    /// Longer than an attempt (10 s) and its bookkeeping; short enough that after a crash the messages that
    /// were in flight are retried within 30 s.
    static let leaseMillis: Int64 = 25_000
    /// Deliveries in flight at once.
    static let concurrency = 32

    func run() async throws {
        let sender = WebhookSender(urlGuard: WebhookURLGuard(allowPrivate: configuration.allowPrivateWebhooks))
        Counter(label: "pushtally_webhook_messages_delivered_total").increment(by: 0)
        Counter(label: "pushtally_webhook_attempts_failed_total").increment(by: 0)
        Counter(label: "pushtally_webhook_messages_failed_total").increment(by: 0)
        await cancelWhenGracefulShutdown {
            var lastPrune: Int64 = 0
            var lastGauge: Int64 = 0
            while !Task.isCancelled {
                var busy = false
                do {
                    let now = clock()
                    _ = try await store.packOutbox(now: now, fillMillis: Self.fillMillis)
                    let claimed = try await store.claimDeliveries(now: now, leaseMillis: Self.leaseMillis, limit: Self.concurrency)
                    busy = claimed.count == Self.concurrency
                    await deliver(claimed, with: sender)
                    if now - lastGauge >= 1000 {
                        lastGauge = now
                        let (_, oldest) = try await store.undelivered()
                        Gauge(label: "pushtally_webhook_oldest_undelivered_seconds").record(Double(oldest.map { max(0, now - $0) } ?? 0) / 1000)
                    }
                    if now - lastPrune >= 3_600_000 {
                        lastPrune = now
                        let pruned = try await store.pruneDeliveries(createdBefore: now - configuration.webhookRetentionMillis)
                        if pruned > 0 { logger.info("pruned old webhook deliveries", metadata: ["count": "\(pruned)"]) }
                    }
                } catch is CancellationError {
                    break
                } catch {
                    logger.warning("webhook dispatch failed; will retry", metadata: ["error": "\(error)"])
                }
                if !busy { try? await Task.sleep(for: Self.pollInterval) }
            }
        }
        await sender.shutdown()
    }

    private func deliver(_ claimed: [ClaimedDelivery], with sender: WebhookSender) async {
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                group.addTask {
                    let result = await sender.send(delivery, at: clock())
                    let now = clock()
                    let update = DeliveryUpdate(result, of: delivery, at: now, policy: configuration.webhookRetry)
                    do {
                        try await store.recordAttempt(delivery, update: update, at: now)
                    } catch {
                        // The lease runs out and the message is sent again: at least once, never lost.
                        logger.warning("could not record a webhook attempt", metadata: ["error": "\(error)"])
                    }
                    record(result, update: update, delivery: delivery)
                }
            }
        }
    }

    private func record(_ result: WebhookAttemptResult, update: DeliveryUpdate, delivery: ClaimedDelivery) {
        switch update.status {
        case .delivered:
            Counter(label: "pushtally_webhook_messages_delivered_total").increment()
        case .pending, .failed:
            Counter(label: "pushtally_webhook_attempts_failed_total").increment()
            if update.status == .failed { Counter(label: "pushtally_webhook_messages_failed_total").increment() }
            logger.info(
                "webhook attempt failed",
                metadata: [
                    "message": "\(delivery.messageID)", "endpoint": "\(delivery.endpointID)",
                    "error": "\(update.error ?? "")", "outcome": "\(update.status.rawValue)",
                ])
        }
    }
}
