/// The keys that recognise a retry: the same `receipt_id`, or the same device, for the same push and kind.
///
/// Every key of an event is stored, not just the first that matches, so a later retry that carries only one
/// of the ids is still recognised. An event is a retry when any of its keys was already stored.
package enum DedupeKeys {
    /// Keys of an event (its device id already keyed). The unit separator cannot occur in a validated field,
    /// so keys of different shapes never collide.
    package static func of(kind: EventKind, action: String, deviceID: String?, receiptID: String?) -> [String] {
        // A session is one per (device, session_id), a conversion one per (device, conversion_id): one key each,
        // ending with the device suffix so `forget` removes it. A conversion without an id is never a retry.
        switch kind {
        case .session, .conversion:
            guard let receiptID, let deviceID else { return [] }
            return ["\(kind == .session ? "s" : "c")\u{1F}\(receiptID)\(deviceSuffix(keyedDeviceID: deviceID))"]
        case .display, .action:
            break
        }
        let scope = kind == .display ? "d" : "a\u{1F}\(action)"
        var keys: [String] = []
        if let receiptID { keys.append("\(scope)\u{1F}r\u{1F}\(receiptID)") }
        if let deviceID { keys.append("\(scope)\u{1F}i\u{1F}\(deviceID)") }
        return keys
    }

    /// How many keys ``of(kind:action:deviceID:receiptID:)`` gives, without building them.
    package static func count(kind: EventKind, deviceID: String?, receiptID: String?) -> Int {
        switch kind {
        case .session, .conversion: receiptID != nil && deviceID != nil ? 1 : 0
        case .display, .action: (receiptID != nil ? 1 : 0) + (deviceID != nil ? 1 : 0)
        }
    }

    package static func of(_ event: IncomingEvent) -> [String] {
        of(kind: event.kind, action: event.action, deviceID: event.deviceID, receiptID: event.receiptID)
    }

    /// What every device key of one (keyed) device id ends with: `forget` deletes the keys that end so, matched
    /// exactly (a pattern match would read the hash's `_` as a wildcard).
    package static func deviceSuffix(keyedDeviceID: String) -> String {
        "\u{1F}i\u{1F}\(keyedDeviceID)"
    }
}
