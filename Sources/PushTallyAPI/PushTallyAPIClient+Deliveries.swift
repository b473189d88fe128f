import Foundation
import PushTallyCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PushTallyAPIClient {
    /// Posts a push's per-device delivery lines to `POST /v1/pushes/{push_id}/deliveries` as NDJSON.
    public func recordDeliveries(pushID: String, _ lines: [DeliveryLine]) async throws -> DeliverySummary {
        var request = URLRequest(url: url("/v1/pushes/\(Self.pathSegment(pushID))/deliveries"))
        request.httpMethod = "POST"
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(lines.map(Self.line).joined(separator: "\n").utf8)
        let (status, data) = try await exchange(request)
        try Self.check(status, data)
        return try JSONDecoder().decode(DeliverySummary.self, from: data)
    }

    private static func line(_ line: DeliveryLine) -> String {
        var object: [String: String] = ["device_id": line.deviceID, "platform": line.platform, "outcome": line.outcome]
        if let timestamp = line.timestampMillis { object["timestamp"] = Timestamp.iso8601(millis: timestamp) }
        if let recipient = line.recipient { object["recipient"] = recipient }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// A path segment as the server reads it back: everything but unreserved characters percent-encoded.
    static func pathSegment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? text
    }
}
