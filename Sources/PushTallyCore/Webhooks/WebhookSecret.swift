import Crypto
import Foundation

/// Standard Webhooks secrets (`whsec_` + base64 of random bytes) and signatures.
public enum WebhookSecret {
    /// 32 random bytes: the spec asks for at least 24.
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "whsec_" + Data(bytes).base64EncodedString()
    }

    /// The key bytes a secret stands for; `nil` when it is not `whsec_` + base64.
    public static func keyBytes(_ secret: String) -> Data? {
        guard secret.hasPrefix("whsec_") else { return nil }
        return Data(base64Encoded: String(secret.dropFirst("whsec_".count)))
    }

    /// The `webhook-signature` header: `v1,` + base64 of HMAC-SHA256 over `id.timestamp.body`.
    public static func signature(messageID: String, timestampSeconds: Int64, body: some DataProtocol, secret: String) -> String? {
        guard let key = keyBytes(secret) else { return nil }
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key))
        hmac.update(data: Data("\(messageID).\(timestampSeconds).".utf8))
        hmac.update(data: body)
        return "v1," + Data(hmac.finalize()).base64EncodedString()
    }
}

/// Random ids with a readable prefix and a time-ordered head, so listings sort by creation.
package enum WebhookID {
    package static func make(_ prefix: String, millis: Int64) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<8).map { _ in String(UInt8.random(in: .min ... .max, using: &generator), radix: 16).leftPadded(to: 2) }
        return prefix + "_" + String(UInt64(max(0, millis)), radix: 16).leftPadded(to: 12) + random.joined()
    }
}
