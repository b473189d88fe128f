import Foundation

/// Reads what a notification's payload carries.
enum Payload {
    /// `push_id` at the top level of the payload (Apple's advice) or inside `aps.alert` (seen in the field),
    /// as a string or a number.
    static func pushID(in userInfo: [AnyHashable: Any]) -> String? {
        let alert = (userInfo["aps"] as? [AnyHashable: Any])?["alert"] as? [AnyHashable: Any]
        for candidate in [userInfo["push_id"], alert?["push_id"]] {
            switch candidate {
            case let text as String where !text.isEmpty: return text
            case let number as Int: return String(number)
            case let number as NSNumber: return number.stringValue
            default: continue
            }
        }
        return nil
    }

    /// Apple's default and dismiss identifiers under the names reports use.
    static func action(for identifier: String) -> String {
        switch identifier {
        case "com.apple.UNNotificationDefaultActionIdentifier": "open"
        case "com.apple.UNNotificationDismissActionIdentifier": "dismiss"
        default: identifier
        }
    }
}
