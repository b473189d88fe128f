#if canImport(UserNotifications)
import Foundation
import UserNotifications

extension NotificationPermission {
    /// The setting `status` names; `nil` for a status this Kit does not know.
    public init?(_ status: UNAuthorizationStatus) {
        switch status {
        case .authorized: self = .authorized
        case .provisional: self = .provisional
        case .denied: self = .denied
        case .notDetermined: self = .notDetermined
        default:
            // App Clips' status, declared only where they run.
            #if os(iOS) || os(visionOS)
            if status == .ephemeral {
                self = .ephemeral
                return
            }
            #endif
            return nil
        }
    }

    /// The app's setting now, as `UNUserNotificationCenter` reports it.
    public static func current() async -> NotificationPermission? {
        let status = await UNUserNotificationCenter.current().notificationSettings().authorizationStatus
        return NotificationPermission(status)
    }
}

extension PushTallyClient {
    /// Records the start of a session (``recordSession(id:notificationPermission:deadline:)``) with the app's
    /// notification setting read from `UNUserNotificationCenter`.
    @discardableResult
    public func recordSessionWithCurrentPermission(
        id: String = UUID().uuidString, deadline: Date = .distantFuture
    ) async -> DeliveryReport {
        await recordSession(id: id, notificationPermission: await NotificationPermission.current(), deadline: deadline)
    }
}
#endif
