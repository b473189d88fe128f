// Not on tvOS, where notifications carry no attachments and no `userInfo`.
#if canImport(UserNotifications) && !os(tvOS)
import Foundation
import UserNotifications

extension PushTallyClient {
    /// A Notification Service Extension's whole job in one call: fetches the push's media within
    /// `media.timeout`, attaches it, records the display's receipt (with `media` and `extension_ms`), sends it
    /// for at most `media.sendTimeout`, and hands the content back through `contentHandler`, exactly once.
    /// Keep what it returns and call its `timeWillExpire()` from `serviceExtensionTimeWillExpire()`: that
    /// hands back the plain content at once and records a `timed_out` receipt if none was recorded.
    ///
    /// ```swift
    /// override func didReceive(_ request: UNNotificationRequest,
    ///                          withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
    ///     display = client.handle(request, contentHandler: contentHandler)
    /// }
    ///
    /// override func serviceExtensionTimeWillExpire() {
    ///     display?.timeWillExpire()
    /// }
    /// ```
    public func handle(
        _ request: UNNotificationRequest, media: MediaOptions = MediaOptions(),
        contentHandler: @escaping (UNNotificationContent) -> Void
    ) -> NotificationDisplay {
        let display = beginDisplay(userInfo: request.content.userInfo, media: media)
        let delivery = ContentDelivery(request: request, contentHandler: contentHandler)
        display.onExpiry = { delivery.handBack(attached: false) }
        Task {
            let outcome = await display.run { file in try delivery.attach(file) }
            delivery.handBack(attached: outcome == .attached)
        }
        return display
    }
}

/// The content a display hands back, once: with its attachment, or the push's own content as the fallback.
/// UserNotifications' content types are not `Sendable`; every use of them here is serialized by `handedBack`
/// and by `run` calling `attach` before it returns.
private final class ContentDelivery: @unchecked Sendable {
    private let request: UNNotificationRequest
    private let contentHandler: (UNNotificationContent) -> Void
    private let handedBack = FirstAnswer()
    private var attachment: UNNotificationAttachment?

    init(request: UNNotificationRequest, contentHandler: @escaping (UNNotificationContent) -> Void) {
        self.request = request
        self.contentHandler = contentHandler
    }

    func attach(_ file: MediaFile) throws {
        attachment = try UNNotificationAttachment(identifier: "media", url: file.url, options: nil)
    }

    func handBack(attached: Bool) {
        guard handedBack.claim() else { return }
        guard attached, let attachment, let content = request.content.mutableCopy() as? UNMutableNotificationContent else {
            return contentHandler(request.content)
        }
        content.attachments = [attachment]
        contentHandler(content)
    }
}
#endif
