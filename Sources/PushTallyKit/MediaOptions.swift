import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PushTallyClient {
    /// Where a push names its media and how long a display may spend on it. The defaults leave a display
    /// well inside the ~30 seconds iOS gives a Notification Service Extension.
    public struct MediaOptions: Sendable {
        /// Where the payload carries the media's URL, tried in order; each path is a list of dictionary keys.
        /// By default `image` at the top level, then `image` inside `aps.alert`.
        public var keyPaths: [[String]] = [["image"], ["aps", "alert", "image"]]
        /// Longest a display spends fetching its media, counted from its start; past it the plain
        /// notification is shown and the receipt says `timed_out`.
        public var timeout: TimeInterval = 20
        /// Longest a display then spends sending its receipt; what is not sent stays queued.
        public var sendTimeout: TimeInterval = 5
        /// The session the media is fetched with (`URLSession.shared` by default).
        public var session: URLSession = .shared

        public init() {}

        /// The media's URL, if the payload names one at one of `keyPaths` (a string, as APNs payloads carry
        /// it). A value that is there but not an `http` or `https` URL still counts: the display then fails.
        func mediaReference(in userInfo: [AnyHashable: Any]) -> MediaReference? {
            for path in keyPaths where !path.isEmpty {
                var node: Any? = userInfo
                for key in path { node = (node as? [AnyHashable: Any])?[key] }
                guard let text = node as? String, !text.isEmpty else { continue }
                guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme)
                else { return .unusable(text) }
                return .url(url)
            }
            return nil
        }
    }

    /// What the payload names as its media.
    enum MediaReference: Equatable {
        case url(URL)
        /// Something that is not a URL the Kit can fetch.
        case unusable(String)
    }
}
