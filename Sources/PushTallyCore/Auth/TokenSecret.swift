import Crypto
import Foundation

/// The shape of a bearer token: `pt_<id>_<secret>`. The id finds the row; only a hash of the secret is stored.
package enum TokenSecret {
    package static func generate() -> (token: String, id: String, hash: Data) {
        let id = randomHex(bytes: 6)
        let secret = randomHex(bytes: 32)
        return ("pt_\(id)_\(secret)", id, hash(secret))
    }

    /// Splits a presented token into its id and secret; `nil` when it is not of our shape.
    package static func parse(_ token: String) -> (id: String, secret: String)? {
        let parts = token.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "pt", parts[1].utf8.count == 12, parts[2].utf8.count == 64 else {
            return nil
        }
        return (String(parts[1]), String(parts[2]))
    }

    /// SHA-256 is enough: secrets are 256 random bits, so there is nothing for a slow hash to protect.
    package static func hash(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Compares without an early exit, so timing does not reveal how much of a hash matched.
    package static func constantTimeEquals(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for (x, y) in zip(a, b) { difference |= x ^ y }
        return difference == 0
    }

    private static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }
}

extension String {
    /// Zero-padded on the left to `width` characters (hex bytes, time heads of ids).
    package func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
