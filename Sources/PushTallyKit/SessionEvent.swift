import Foundation

/// The start of an app session, as posted to `/v1/sessions` (one NDJSON line). The collector counts a
/// session once per (`device_id`, `session_id`), so the outbox's retries do not add sessions.
struct SessionEvent: Codable, Equatable, Sendable {
    var device_id: String
    var session_id: String
    /// The device's clock when the session started, unix seconds.
    var ts: Double
    /// The bundle identifier, or whatever `Configuration.app` says.
    var app: String?
    var app_version: String?
    /// The app's notification setting when the session started (``NotificationPermission``); left out when
    /// the app did not say, and of sessions queued by an older Kit.
    var notification_permission: String?
}
