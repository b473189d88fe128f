import Logging
import Metrics
import PushTallyCore
import ServiceLifecycle

/// Counts the devices' states every `intervalSeconds` (the devices report's default window, 30 days, at least one
/// send) into `pushtally_devices{app, platform, state}` and `pushtally_devices_sent_to{app, platform}`: a count
/// reads every device sent to, so it runs on its own clock, never at scrape time.
struct DeviceStateGauges: Service {
    let reader: ReportReadRouter
    let intervalSeconds: Double
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    Self.record(try await reader.read { try await $0.deviceStateCounts(DeviceStateQuery()) }.value)
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("counting device states failed; will retry", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: .seconds(intervalSeconds))
            }
        }
    }

    static func record(_ counts: [DeviceStateCount]) {
        for count in counts {
            let labels = [("app", count.app), ("platform", count.platform)]
            Gauge(label: "pushtally_devices_sent_to", dimensions: labels).record(count.sentTo)
            for state in DarkState.allCases {
                Gauge(label: "pushtally_devices", dimensions: labels + [("state", state.rawValue)]).record(count.devices[state] ?? 0)
            }
        }
    }
}
