import Foundation

/// What the collector knows of one device (a keyed install id) it was told pushes were sent to: its sends in
/// the kept window, the provider's last word, and the last time its client showed a push, opened one and
/// started a session. One row per device, updated in the transactions that store its deliveries and events.
public struct DeviceState: Sendable, Hashable {
    /// The store's keyed hash of the install id.
    public var deviceKey: String
    /// The app of the push last sent to it (`""` when its push named none).
    public var app: String
    public var platform: String
    /// The pushes sent to it in the kept window, oldest first (``DeviceSends``).
    public var sends: DeviceSends
    /// The provider's outcome of its latest send (by send time), and when the provider said so (or the send's
    /// time when it gave none).
    public var lastOutcome: String?
    public var lastOutcomeMillis: Int64?
    /// The backend's reference, as its latest line gave it.
    public var recipient: String?
    /// Its client's first event the collector saw; `nil` when none came ever.
    public var firstClientMillis: Int64?
    public var lastDisplayMillis: Int64?
    public var lastOpenMillis: Int64?
    public var lastSessionMillis: Int64?
    /// The notification setting its latest session reported.
    public var permission: String?

    public init(
        deviceKey: String, app: String, platform: String, sends: DeviceSends = DeviceSends(), lastOutcome: String? = nil,
        lastOutcomeMillis: Int64? = nil, recipient: String? = nil, firstClientMillis: Int64? = nil, lastDisplayMillis: Int64? = nil,
        lastOpenMillis: Int64? = nil, lastSessionMillis: Int64? = nil, permission: String? = nil
    ) {
        self.deviceKey = deviceKey
        self.app = app
        self.platform = platform
        self.sends = sends
        self.lastOutcome = lastOutcome
        self.lastOutcomeMillis = lastOutcomeMillis
        self.recipient = recipient
        self.firstClientMillis = firstClientMillis
        self.lastDisplayMillis = lastDisplayMillis
        self.lastOpenMillis = lastOpenMillis
        self.lastSessionMillis = lastSessionMillis
        self.permission = permission
    }

    /// The device's state in a window starting at `sinceMillis`, tested in ``DarkState``'s order.
    public func state(sinceMillis: Int64) -> DarkState {
        func inWindow(_ millis: Int64?) -> Bool { millis.map { $0 >= sinceMillis } ?? false }
        if let lastOutcome, lastOutcome != DeliveryLine.accepted { return .rejected }
        if firstClientMillis == nil { return .unknown }
        let displayed = inWindow(lastDisplayMillis)
        if !displayed { return inWindow(lastSessionMillis) ? .muted : .gone }
        return inWindow(lastOpenMillis) ? .engaged : .ignoring
    }
}

/// Where a device sent pushes stands, each device in exactly one, tested in this order.
public enum DarkState: String, Sendable, Hashable, CaseIterable, Codable {
    /// The provider refused its last send: prune the token.
    case rejected
    /// No client event from it ever: the app's client is missing, or the id is not the one the client posts.
    case unknown
    /// No display and no session in the window, but client events before it: likely uninstalled.
    case gone
    /// Sessions in the window but no display: notifications off (the setting says so) or the extension broken.
    case muted
    /// Displays in the window, no open.
    case ignoring
    /// Displays and an open in the window.
    case engaged

    /// The states in which the device does not show pushes.
    public var isDark: Bool { self != .ignoring && self != .engaged }
}

/// The pushes sent to a device in the kept window, each once: what makes a second post of the same line change
/// nothing. Kept as text in the device's row (`push_id` and send time pairs as a JSON array), pruned to the
/// window on every write, so a device's row grows with its sends in the window, never with all time.
public struct DeviceSends: Sendable, Hashable {
    public struct Send: Sendable, Hashable {
        public var pushID: String
        public var sentMillis: Int64
    }

    /// Oldest first.
    public private(set) var sends: [Send]

    public init(_ sends: [Send] = []) { self.sends = sends }

    /// How long sends are kept: the longest window the report and `devices/states` judge by.
    public static let keptDays = 90

    public func contains(_ pushID: String) -> Bool { sends.contains { $0.pushID == pushID } }

    /// Sends at or after `sinceMillis`.
    public func count(sinceMillis: Int64) -> Int { sends.reduce(0) { $0 + ($1.sentMillis >= sinceMillis ? 1 : 0) } }

    /// The latest send's time.
    public var lastMillis: Int64? { sends.map(\.sentMillis).max() }

    /// Adds a send, keeping the list in send-time order and dropping sends older than `keptSinceMillis`.
    public mutating func add(_ pushID: String, sentMillis: Int64, keptSinceMillis: Int64) {
        sends.append(Send(pushID: pushID, sentMillis: sentMillis))
        sends.sort { ($0.sentMillis, $0.pushID) < ($1.sentMillis, $1.pushID) }
        sends.removeAll { $0.sentMillis < keptSinceMillis }
    }

    /// The stored text: `[["push id",millis],...]`.
    public var text: String {
        "[" + sends.map { "[\(JSONText.quoted($0.pushID)),\($0.sentMillis)]" }.joined(separator: ",") + "]"
    }

    /// Reads ``text`` back; anything else reads as no sends. The form ``text`` writes is read by a scan of its bytes
    /// (a report reads every device's list); a push id with an escape goes through the JSON parser.
    public init(text: String) {
        if let sends = Self.scan(text) {
            self.init(sends)
            return
        }
        guard case .array(let pairs)? = try? JSONValue.parse(Data(text.utf8)) else {
            self.init()
            return
        }
        self.init(pairs.compactMap { pair in
            guard case .array(let parts) = pair, parts.count == 2, case .string(let pushID) = parts[0], case .number(let millis) = parts[1]
            else { return nil }
            return Send(pushID: pushID, sentMillis: Int64(millis))
        })
    }

    /// `[["id",123],...]` with no escape in any id, or `nil`.
    private static func scan(_ text: String) -> [Send]? {
        var sends: [Send] = []
        var utf8 = text.utf8[...]
        func take(_ byte: UInt8) -> Bool {
            guard utf8.first == byte else { return false }
            utf8 = utf8.dropFirst()
            return true
        }
        guard take(UInt8(ascii: "[")) else { return nil }
        if take(UInt8(ascii: "]")) { return utf8.isEmpty ? [] : nil }
        repeat {
            guard take(UInt8(ascii: "[")), take(UInt8(ascii: "\"")) else { return nil }
            guard let end = utf8.firstIndex(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }),
                utf8[end] == UInt8(ascii: "\"")
            else { return nil }
            let pushID = String(decoding: utf8[utf8.startIndex..<end], as: UTF8.self)
            utf8 = utf8[utf8.index(after: end)...]
            guard take(UInt8(ascii: ",")) else { return nil }
            var millis: Int64 = 0
            var digits = 0
            while let byte = utf8.first, (48...57).contains(byte), digits < 18 {
                millis = millis * 10 + Int64(byte - 48)
                digits += 1
                utf8 = utf8.dropFirst()
            }
            guard digits > 0, take(UInt8(ascii: "]")) else { return nil }
            sends.append(Send(pushID: pushID, sentMillis: millis))
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) && utf8.isEmpty ? sends : nil
    }
}

/// Which devices sent pushes have turned gone, for `device.gone` (``Queries/ClaimGoneDevices`` then decides which
/// of them no message named yet).
package enum GoneDevices {
    /// The devices among `states` (read as sent to since the default window's start) that are gone now, in key order.
    package static func found(_ states: [DeviceState], nowMillis: Int64) -> [DeviceState] {
        let since = DeviceStateQuery().sinceMillis(nowMillis: nowMillis)
        return states.filter { $0.sends.count(sinceMillis: since) > 0 && $0.state(sinceMillis: since) == .gone }
            .sorted { $0.deviceKey < $1.deviceKey }
    }
}
