/// How long before a session or conversion a tap or a display may explain it
/// (`serve --direct-window 5m --influence-window 24h --conversion-window 3d`).
public struct AttributionWindows: Sendable, Hashable {
    /// A tap at most this long before a session makes it a direct open.
    public var directMillis: Int64
    /// A display at most this long before a session or conversion may have influenced it.
    public var influenceMillis: Int64
    /// A tap at most this long before a conversion makes it direct.
    public var conversionMillis: Int64

    /// Only a device's latest displays are candidates for an influenced open (OneSignal looks at the last 10).
    public static let influenceCandidates = 10

    public init(
        directMillis: Int64 = 5 * 60 * 1000, influenceMillis: Int64 = 24 * 3600 * 1000,
        conversionMillis: Int64 = 3 * 24 * 3600 * 1000
    ) {
        self.directMillis = directMillis
        self.influenceMillis = influenceMillis
        self.conversionMillis = conversionMillis
    }

    /// How far before the earliest changed event a recomputation reads a device's displays, taps and earlier
    /// sessions.
    public var lookbackMillis: Int64 { max(directMillis, influenceMillis, conversionMillis) }
}
