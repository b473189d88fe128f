import Foundation

/// One notification on its way to the screen, from the extension's `didReceive` to the content it hands back:
/// fetches the push's media within a budget, and records exactly one display receipt, with its `media` outcome
/// and `extension_ms`, however the display ends (attached, failed, or cut off by the extension's expiry).
///
/// On iOS, `PushTallyClient.handle(_:media:contentHandler:)` makes one and does all of it; the app's extension
/// keeps it only to call `timeWillExpire()`.
public final class NotificationDisplay: @unchecked Sendable {
    /// When the extension started on this notification; `extension_ms` counts from here.
    public let startedAt: Date
    let client: PushTallyClient
    let options: PushTallyClient.MediaOptions
    /// The payload is read here only, on the caller's thread, so the display keeps what it needs of it.
    private let pushID: String?
    private let media: PushTallyClient.MediaReference?
    private let recording = FirstAnswer()
    private let running = FirstAnswer()
    private let download = MediaDownload()
    // Guards `recorded`, the outcome the receipt was recorded with.
    private let lock = NSLock()
    private var recorded: MediaOutcome?
    /// Called by `timeWillExpire()`, every time: hands the fallback content back on iOS.
    var onExpiry: (@Sendable () -> Void)?

    init(client: PushTallyClient, userInfo: [AnyHashable: Any], options: PushTallyClient.MediaOptions, startedAt: Date) {
        self.client = client
        self.options = options
        self.startedAt = startedAt
        pushID = Payload.pushID(in: userInfo)
        media = options.mediaReference(in: userInfo)
    }

    /// The outcome this display's receipt recorded, once it has one.
    public var outcome: MediaOutcome? {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    /// Fetches the media the push names (if any) until `startedAt + options.timeout`, gives the file to
    /// `attach` (which throws when it cannot attach it), then records the receipt and sends it for at most
    /// `options.sendTimeout`. Returns the recorded outcome; after `timeWillExpire()`, `.timedOut`, and
    /// `attach` is not called if it had not been. A display runs once: a second call only returns the
    /// outcome recorded so far (`.failed` while there is none).
    @discardableResult
    public func run(attach: (MediaFile) throws -> Void) async -> MediaOutcome {
        guard running.claim() else { return self.outcome ?? .failed }
        let outcome: MediaOutcome
        switch media {
        case nil:
            outcome = .none
        case .unusable:
            outcome = .failed
        case .url(let url):
            switch await download.run(url, session: options.session, deadline: startedAt.addingTimeInterval(options.timeout)) {
            case .timedOut:
                outcome = .timedOut
            case .failed:
                outcome = .failed
            case .file(let file):
                if self.outcome != nil {
                    try? FileManager.default.removeItem(at: file.url)
                    outcome = .timedOut
                } else {
                    do {
                        try attach(file)
                        outcome = .attached
                    } catch {
                        try? FileManager.default.removeItem(at: file.url)
                        outcome = .failed
                    }
                }
            }
        }
        await finish(outcome)
        return self.outcome ?? outcome
    }

    /// Records the receipt for the extension's expiry (`serviceExtensionTimeWillExpire`): a `timed_out`
    /// receipt written to the outbox at once, without waiting on the network (the app or the next display
    /// sends it), and the media download is cancelled. Returns false, and records nothing, when the display's
    /// receipt was already recorded.
    @discardableResult
    public func timeWillExpire() -> Bool {
        let now = Date()
        defer { onExpiry?() }
        guard claim(.timedOut) else { return false }
        download.cancel()
        if let receipt = receipt(.timedOut, at: now) {
            _ = try? client.outbox.append(.receipt(receipt), now: now)
        }
        return true
    }

    /// Records the receipt with `outcome` and sends what is queued, unless one was recorded already.
    private func finish(_ outcome: MediaOutcome) async {
        let now = Date()
        guard claim(outcome), let receipt = receipt(outcome, at: now) else { return }
        _ = await client.enqueue(.receipt(receipt), now: now, deadline: now.addingTimeInterval(options.sendTimeout))
    }

    private func claim(_ outcome: MediaOutcome) -> Bool {
        guard recording.claim() else { return false }
        lock.lock()
        recorded = outcome
        lock.unlock()
        return true
    }

    /// A display receipt, or `nil` for a payload without a `push_id` (nothing to count it against).
    private func receipt(_ outcome: MediaOutcome, at now: Date) -> ReceiptEvent? {
        guard let pushID else { return nil }
        // The collector takes 0 to 60,000 ms; a clock moved back or a stopped process could give more or less.
        let milliseconds = min(max(Int((now.timeIntervalSince(startedAt) * 1000).rounded()), 0), 60_000)
        return client.displayReceipt(pushID: pushID, at: now, media: outcome, extensionMilliseconds: milliseconds)
    }
}

extension PushTallyClient {
    /// Starts a display of the notification whose payload is `userInfo`: call it first thing in `didReceive`.
    /// `run(attach:)` then does the work, and `timeWillExpire()` answers the extension's expiry.
    public func beginDisplay(userInfo: [AnyHashable: Any], media: MediaOptions = MediaOptions(), startedAt: Date = Date()) -> NotificationDisplay {
        NotificationDisplay(client: self, userInfo: userInfo, options: media, startedAt: startedAt)
    }
}
