import HTTPTypes

/// Which web origins may post events from a browser (`serve --cors-origin`), and the CORS headers they get.
///
/// Only the ingest routes take part: a site's service worker posts receipts, actions, sessions and
/// conversions to the collector's origin, and nothing else of the API is meant for a browser on another site.
/// Without listed origins the policy is inert and every answer is what it is without CORS.
public struct CORSPolicy: Sendable, Equatable {
    /// Serialized origins (`https://www.example.com`, `http://127.0.0.1:8000`), compared byte for byte with
    /// the `Origin` a browser sends.
    public let origins: Set<String>

    /// How long a browser may keep a preflight's answer, in seconds (Chromium caps it at 7200).
    static let maxAgeSeconds = 7200

    public init(origins: some Sequence<String>) {
        self.origins = Set(origins)
    }

    public var isEnabled: Bool { !origins.isEmpty }

    /// What a request's `Origin` makes of it.
    enum Verdict: Equatable {
        /// No policy, or no `Origin` (an app, an extension, a backend): answered exactly as without CORS.
        case notCrossOrigin
        /// A listed origin: answered with ``answerHeaders(for:)``.
        case allowed(String)
        /// An origin that is not listed: refused with ``refusal``, without CORS headers.
        case refused
    }

    func verdict(_ headers: HTTPFields) -> Verdict {
        guard isEnabled, let origin = headers[.origin] else { return .notCrossOrigin }
        return origins.contains(origin) ? .allowed(origin) : .refused
    }

    /// The headers every answer to a listed origin carries, errors included, so its scripts can read them.
    static func answerHeaders(for origin: String) -> HTTPFields {
        [.accessControlAllowOrigin: origin, .vary: "Origin"]
    }

    /// A preflight's answer headers: what the client libraries send (`POST` with a JSON or NDJSON body,
    /// gzip, a bearer token).
    static func preflightHeaders(for origin: String) -> HTTPFields {
        var headers = answerHeaders(for: origin)
        headers[.accessControlAllowMethods] = "POST"
        headers[.accessControlAllowHeaders] = "Content-Type, Authorization, Content-Encoding"
        headers[.accessControlMaxAge] = String(maxAgeSeconds)
        return headers
    }

    /// Answer to a request from an origin that is not listed: it must not post events, not even as a plain
    /// form a browser sends without a preflight.
    static let refusal = APIError(
        .forbidden, "origin_not_allowed", "this origin may not post events here; list it with serve --cors-origin",
        field: "Origin")

    /// Whether `origin` is one a browser sends: `scheme://host` with an optional `:port`, nothing after.
    public static func isSerializedOrigin(_ origin: String) -> Bool {
        guard let schemeEnd = origin.range(of: "://") else { return false }
        let scheme = origin[..<schemeEnd.lowerBound]
        let authority = origin[schemeEnd.upperBound...]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            !authority.isEmpty, !authority.contains(where: { "/?#@ *\\".contains($0) || !$0.isASCII })
        else { return false }
        // Browsers serialize the scheme and host in lower case and leave out the scheme's default port.
        return origin == origin.lowercased() && !authority.hasSuffix(":") && !authority.hasPrefix(":")
    }
}
