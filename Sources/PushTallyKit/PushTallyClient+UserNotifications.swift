#if canImport(UserNotifications)
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
