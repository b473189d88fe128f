/// What a webhook endpoint can subscribe to. The raw values are the `type` field receivers switch on.
public enum WebhookEventType: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Display receipts, batched: `data.events` holds up to ``WebhookEventType/batchLimit`` of them.
    case receiptDisplayed = "receipt.displayed"
    /// Action taps (open, dismiss, custom buttons), batched like receipts.
    case actionTapped = "action.tapped"
    /// A push registered or its send totals replaced by the backend.
    case pushRegistered = "push.registered"
    /// An alert went from ok to firing.
    case alertFiring = "alert.firing"
    /// A firing alert went back to ok.
    case alertResolved = "alert.resolved"
    /// Devices whose latest send the provider refused (they were not refused before), batched: `data.devices`.
    case deviceRejected = "device.rejected"
    /// Devices sent pushes that turned `gone` (no display and no session in the last 30 days), batched.
    case deviceGone = "device.gone"

    /// The most events one batched message carries, so a receiver's body stays a few hundred kilobytes.
    public static let batchLimit = 500

    public static func < (a: WebhookEventType, b: WebhookEventType) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
