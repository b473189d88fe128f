import Foundation
import PushTallyCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A device's support timeline (admin token).
extension PushTallyAPIClient {
    /// `GET /v1/devices/{device_id}/timeline`: the server's JSON, `{"events":[...]}` with `next` while more
    /// remain.
    /// - Parameters:
    ///   - deviceID: the raw device id, as the app sends it (the server keys it).
    ///   - limit: at most this many events (the server's default, 100, when `nil`).
    ///   - after: a previous page's `next`.
    public func deviceTimeline(deviceID: String, limit: Int? = nil, after: String? = nil) async throws -> String {
        var query: [(String, String)] = []
        if let limit { query.append(("limit", String(limit))) }
        if let after { query.append(("after", after)) }
        let segment =
            deviceID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~")))
            ?? deviceID
        var components = URLComponents(url: url("/v1/devices/" + segment + "/timeline"), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.percentEncodedQuery = FormBody.encode(query) }
        let (status, data) = try await exchange(URLRequest(url: components.url!))
        try Self.check(status, data)
        return String(decoding: data, as: UTF8.self)
    }
}
