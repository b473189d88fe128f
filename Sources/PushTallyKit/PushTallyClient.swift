import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The PushTally client an app and its Notification Service Extension embed.
///
/// Every event is first written to a durable outbox in `storeDirectory` (use an App Group container, so
/// the app can send what the extension could not), then sent in batches, and removed only once the
/// collector answered 2xx for it. Delivery is at least once; the collector counts retries once through
/// each event's own id: a receipt's `receipt_id`, a session's `session_id`, a conversion's `conversion_id`.
///
/// ```swift
/// let client = try PushTallyClient(
///     endpoint: URL(string: "https://collector.example.com")!,
///     storeDirectory: FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example")!)
/// await client.recordDisplay(userInfo: request.content.userInfo, deadline: Date().addingTimeInterval(5))
/// ```
public final class PushTallyClient: @unchecked Sendable {
    /// Tunables; the defaults suit an extension's ~30-second budget and a phone's storage.
    public struct Configuration: Sendable {
        /// Most events kept; past it the oldest are dropped (and counted).
        public var maxQueuedEvents = 1000
        /// Most bytes of queued events kept (their files' sizes); past it the oldest are dropped (and counted).
        /// An event is a few hundred bytes, so the count binds first unless custom action names are long.
        public var maxQueuedBytes = 1 << 20
        /// Events older than this are dropped unsent (the collector clamps event times to 7 days anyway).
        public var maxEventAge: TimeInterval = 7 * 24 * 3600
        /// Events per request.
        public var batchSize = 100
        /// First retry delay after a failure, doubled per failure up to `maxBackoff`.
        public var baseBackoff: TimeInterval = 2
        /// Longest wait between attempts after repeated failures.
        public var maxBackoff: TimeInterval = 3600
        /// Sent as `platform`.
        public var platform: String? = "ios"
        /// The app's short version string (`CFBundleShortVersionString`, e.g. `4.2.0`), sent as `app_version`
        /// with receipts, actions and sessions.
        public var appVersion: String? = DeviceInfo.appVersion()
        /// Sent as `app` with sessions: the bundle identifier (`com.example.app`) by default, or nothing where
        /// there is none. Sessions are recorded by the app; an extension's own identifier would differ.
        public var app: String? = Bundle.main.bundleIdentifier
        /// The numeric OS version (`18.1`, or `18.1.1` with a patch level), sent as `os_version`.
        public var osVersion: String? = DeviceInfo.osVersion()

        public init() {}
    }

    /// What a call achieved.
    public struct DeliveryReport: Sendable, Equatable {
        /// Whether the call queued an event: false when the payload had no `push_id`, or for a session or
        /// conversion the collector would refuse (see `recordSession(id:deadline:)` and
        /// `recordConversion(event:value:currency:id:deadline:)`).
        public var recorded: Bool
        /// Events the collector acknowledged during this call.
        public var sent: Int
        /// Events still waiting in the outbox.
        public var pending: Int
        /// Events dropped unsent so far, in total (outbox full or too old): `droppedEvents` when the call ended.
        public var dropped: Int
        /// Events the collector refused outright so far, in total.
        public var rejected: Int
    }

    public let endpoint: URL
    public let ingestKey: String?
    public let configuration: Configuration
    let outbox: Outbox
    let session: URLSession

    /// - Parameters:
    ///   - endpoint: the collector's base URL (`https://collector.example.com`).
    ///   - ingestKey: an `ingest` token, when the collector runs with `--require-ingest-key`.
    ///   - storeDirectory: where the outbox lives; share it between the app and its extension.
    public init(
        endpoint: URL, ingestKey: String? = nil, storeDirectory: URL, configuration: Configuration = Configuration(),
        session: URLSession = .shared
    ) throws {
        self.endpoint = endpoint
        self.ingestKey = ingestKey
        self.configuration = configuration
        self.outbox = try Outbox(root: storeDirectory)
        self.session = session
    }

    /// This install's id, created once and kept in the store directory (shared by the app and its extension).
    public var installID: String {
        let path = outbox.root.appendingPathComponent("install-id")
        if let id = try? String(contentsOf: path, encoding: .utf8), !id.isEmpty { return id }
        let id = UUID().uuidString
        let staging = outbox.temporary.appendingPathComponent(UUID().uuidString)
        try? Data(id.utf8).write(to: staging)
        // A hard link fails if the file exists, so the first writer wins and everyone reads its id.
        if (try? FileManager.default.linkItem(at: staging, to: path)) == nil {
            try? FileManager.default.removeItem(at: staging)
            return (try? String(contentsOf: path, encoding: .utf8)) ?? id
        }
        try? FileManager.default.removeItem(at: staging)
        return id
    }

    /// Events deleted unsent so far because the outbox was past `maxQueuedEvents` or `maxQueuedBytes`, or
    /// older than `maxEventAge`: a running total kept in the store directory, so it counts what every
    /// process sharing the directory dropped. The collector's API has no field for it; report it yourself
    /// if you need it server-side.
    public var droppedEvents: Int { outbox.loadState().dropped }

    /// Records that a notification is about to be shown and sends what is queued until `deadline`.
    /// Whatever is not sent by then stays in the outbox for the next call or `flush()`.
    @discardableResult
    public func recordDisplay(userInfo: [AnyHashable: Any], deadline: Date = .distantFuture) async -> DeliveryReport {
        await record(userInfo: userInfo, action: nil, deadline: deadline)
    }

    /// Records a tap on a notification: `com.apple.UNNotificationDefaultActionIdentifier` is reported as
    /// `open`, `com.apple.UNNotificationDismissActionIdentifier` as `dismiss`, custom identifiers as they are.
    @discardableResult
    public func recordAction(identifier: String, userInfo: [AnyHashable: Any], deadline: Date = .distantFuture) async -> DeliveryReport {
        await record(userInfo: userInfo, action: Payload.action(for: identifier), deadline: deadline)
    }

    private func record(userInfo: [AnyHashable: Any], action: String?, deadline: Date) async -> DeliveryReport {
        guard let pushID = Payload.pushID(in: userInfo) else {
            return await flush(deadline: deadline)
        }
        let now = Date()
        var receipt = displayReceipt(pushID: pushID, at: now, media: nil, extensionMilliseconds: nil)
        receipt.action = action
        return await enqueue(.receipt(receipt), now: now, deadline: deadline)
    }

    /// A display receipt with this install's id, a fresh receipt id and the configured versions.
    func displayReceipt(pushID: String, at now: Date, media: MediaOutcome?, extensionMilliseconds: Int?) -> ReceiptEvent {
        ReceiptEvent(
            push_id: pushID, action: nil, device_id: installID, receipt_id: UUID().uuidString,
            ts: now.timeIntervalSince1970, platform: configuration.platform, app_version: configuration.appVersion,
            os_version: configuration.osVersion, media: media?.rawValue, extension_ms: extensionMilliseconds)
    }

    /// Queues `event` durably, then sends what is queued until `deadline`.
    func enqueue(_ event: OutboxEvent, now: Date, deadline: Date) async -> DeliveryReport {
        do {
            try outbox.append(event, now: now)
        } catch {
            return await flush(deadline: deadline)
        }
        // The flush trims the outbox to its bound, under the flush lock.
        var report = await flush(deadline: deadline, ignoringBackoff: true)
        report.recorded = true
        return report
    }

    /// Sends queued events until the outbox is empty, the collector fails, or `deadline` passes. Safe to call
    /// from several processes on one store directory at once: each event is sent by one of them.
    @discardableResult
    public func flush(deadline: Date = .distantFuture) async -> DeliveryReport {
        await flush(deadline: deadline, ignoringBackoff: false)
    }

    private func flush(deadline: Date, ignoringBackoff: Bool) async -> DeliveryReport {
        var sent = 0
        if let lock = await FileLock.acquire(path: outbox.flushLockPath, until: min(deadline, Date().addingTimeInterval(30))) {
            defer { lock.release() }
            await outbox.trim(to: bound, now: Date())
            let state = outbox.loadState()
            // A fresh event is worth one attempt even while backing off: the extension may not run again.
            if ignoringBackoff || Date().timeIntervalSince1970 >= state.backoff.notBefore {
                sent = await sendQueued(until: deadline)
                // Again, for what other processes queued while this one sent (their own flush may time out
                // waiting for this lock).
                await outbox.trim(to: bound, now: Date())
            }
        }
        let state = outbox.loadState()
        return DeliveryReport(
            recorded: false, sent: sent, pending: outbox.names().count, dropped: state.dropped, rejected: state.rejected)
    }

    private var bound: OutboxBound {
        OutboxBound(
            maxEvents: configuration.maxQueuedEvents, maxBytes: configuration.maxQueuedBytes,
            maxAge: configuration.maxEventAge)
    }
}
