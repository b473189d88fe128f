import Logging
import Metrics
import PushTallyCore
import ServiceLifecycle

/// Every `intervalSeconds`: counts the devices' states (the devices report's default window, 30 days, at least
/// one send) into `pushtally_devices{app, platform, state}` and `pushtally_devices_sent_to{app, platform}`, and
/// names the devices that turned gone in a `device.gone` webhook. Both read every device sent to, so they run on
/// their own clock, never at scrape time or in a request.
struct DeviceStateWatch: Service {
    let reader: ReportReadRouter
    let store: any DeviceDeliveryStore
    let clock: @Sendable () -> Int64
    let intervalSeconds: Double
    let logger: Logger

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    Self.record(try await reader.read { try await $0.deviceStateCounts(DeviceStateQuery()) }.value)
                    let named = try await store.notifyGoneDevices(nowMillis: clock())
                    if named > 0 { logger.info("devices turned gone, named in device.gone", metadata: ["count": "\(named)"]) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("watching device states failed; will retry", metadata: ["error": "\(error)"])
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
