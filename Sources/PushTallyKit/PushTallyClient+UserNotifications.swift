// Not on tvOS: there `UNNotificationContent.userInfo` and `UNNotificationResponse` are unavailable (tvOS
// notifications only badge the icon), so tvOS apps call the `userInfo:` methods. Elsewhere these types need
// iOS 10, macOS 10.14, watchOS 3, below the package's platforms.
#if canImport(UserNotifications) && !os(tvOS)
import Foundation
import UserNotifications

extension PushTallyClient {
    /// Records the display of the notification a Notification Service Extension received.
    @discardableResult
    public func recordDisplay(_ request: UNNotificationRequest, deadline: Date = .distantFuture) async -> DeliveryReport {
        await recordDisplay(userInfo: request.content.userInfo, deadline: deadline)
    }

    /// Records what the user did with a notification (from `userNotificationCenter(_:didReceive:)`).
    @discardableResult
    public func recordAction(_ response: UNNotificationResponse, deadline: Date = .distantFuture) async -> DeliveryReport {
        await recordAction(
            identifier: response.actionIdentifier, userInfo: response.notification.request.content.userInfo,
            deadline: deadline)
    }
}
#endif
