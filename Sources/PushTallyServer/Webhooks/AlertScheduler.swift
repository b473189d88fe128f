import Logging
import Metrics
import PushTallyCore
import ServiceLifecycle

/// Evaluates alert rules every interval until shutdown. With several collectors, the store lets one of them
/// evaluate per interval; every collector reads the stored states for its `pushtally_alert_firing` gauges.
struct AlertScheduler: Service {
    let store: any AlertStore & ReportReader
    let intervalSeconds: Double
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            var gauged = Set<String>()
            while !Task.isCancelled {
                do {
                    try await evaluateIfMine()
                    gauged = try await updateGauges(previous: gauged)
                } catch is CancellationError {
                    break
                } catch {
                    logger.warning("alert evaluation failed; will retry", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: .milliseconds(Int64(intervalSeconds * 1000)))
            }
        }
    }

    private func evaluateIfMine() async throws {
        let now = store.configuration.clock()
        guard try await store.claimAlertEvaluation(now: now, intervalMillis: Int64(intervalSeconds * 1000)) else { return }
        for alert in try await store.alerts() {
            let reading: AlertReading
            do {
                reading = try await AlertEvaluator.evaluate(alert.rule, reader: store, now: now)
            } catch let error as TotalOutOfRange {
                // This rule's figures do not add up (TotalOutOfRange); the other rules are still judged.
                logger.warning("alert not evaluated", metadata: ["alert": "\(alert.rule.name)", "error": "\(error)"])
                continue
            }
            let (next, transition) = reading.applied(to: alert, at: now)
            try await store.recordEvaluation(next, transition: transition, at: now)
            if let transition {
                logger.notice(
                    "alert \(transition.state == .firing ? "firing" : "resolved")",
                    metadata: ["alert": "\(alert.rule.name)", "value": "\(reading.value.map { "\($0)" } ?? "none")"])
            }
        }
    }

    /// Sets `pushtally_alert_firing{alert=...}` from the stored states; drops the series of deleted alerts.
    private func updateGauges(previous: Set<String>) async throws -> Set<String> {
        var names = Set<String>()
        for alert in try await store.alerts() {
            names.insert(alert.rule.name)
            Gauge(label: "pushtally_alert_firing", dimensions: [("alert", alert.rule.name)]).record(alert.state == .firing ? 1 : 0)
        }
        for gone in previous.subtracting(names) {
            Gauge(label: "pushtally_alert_firing", dimensions: [("alert", gone)]).destroy()
        }
        return names
    }
}
