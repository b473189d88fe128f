/// The devices a commit's new events may re-attribute, and from when: what an engine collects while it
/// stores events, then hands to ``AttributionPlanner`` device by device.
package struct AttributionTouches: Sendable {
    package struct Touch: Sendable, Hashable {
        /// The earliest event time of the device's new events.
        package var from: Int64
        /// A new session or conversion must be attributed; a new display or tap only matters when the device
        /// has a session or conversion at or after it (which the engine checks first, cheaply).
        package var hasOutcome: Bool
    }

    package private(set) var devices: [String: Touch] = [:]

    package init() {}

    package var isEmpty: Bool { devices.isEmpty }

    /// Whether an event takes part in attribution: every event but a dismissal (which credits no push and
    /// so touches no device).
    package static func takesPart(kind: EventKind, action: String) -> Bool {
        !(kind == .action && action == StandardAction.dismiss)
    }

    /// Notes a stored event; retries, events without a device and dismissals change no attribution.
    package mutating func add(_ event: StoredEvent, duplicate: Bool) {
        add(kind: event.kind, action: event.action, deviceID: event.deviceID, eventTime: event.eventTime, duplicate: duplicate)
    }

    package mutating func add(kind: EventKind, action: String, deviceID: String?, eventTime: Int64, duplicate: Bool) {
        guard !duplicate, let deviceID, Self.takesPart(kind: kind, action: action) else { return }
        let outcome = !kind.namesPush
        if let touch = devices[deviceID] {
            devices[deviceID] = Touch(from: min(touch.from, eventTime), hasOutcome: touch.hasOutcome || outcome)
        } else {
            devices[deviceID] = Touch(from: eventTime, hasOutcome: outcome)
        }
    }

    /// The devices in a stable order (so engines that lock them do so in one order).
    package var sorted: [(deviceID: String, touch: Touch)] {
        devices.keys.sorted().map { ($0, devices[$0]!) }
    }
}
