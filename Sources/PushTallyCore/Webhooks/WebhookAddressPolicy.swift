#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which addresses a webhook may reach: public ones only, unless the operator allows private networks.
/// A receiver URL is otherwise a way to make the collector call into its own network (SSRF).
public enum WebhookAddressPolicy {
    /// IPv4 ranges refused: loopback, RFC 1918, link-local (cloud metadata lives at 169.254.169.254),
    /// "this network" (0.0.0.0 reaches the local host on Linux) and carrier-grade NAT.
    static let blockedV4: [(prefix: [UInt8], bits: Int)] = [
        ([127, 0, 0, 0], 8), ([10, 0, 0, 0], 8), ([172, 16, 0, 0], 12), ([192, 168, 0, 0], 16),
        ([169, 254, 0, 0], 16), ([0, 0, 0, 0], 8), ([100, 64, 0, 0], 10),
    ]
    /// IPv6 ranges refused: loopback, unique local (fc00::/7), link-local (fe80::/10) and the unspecified address.
    static let blockedV6: [(prefix: [UInt8], bits: Int)] = [
        (Array(repeating: 0, count: 15) + [1], 128), (Array(repeating: 0, count: 16), 128), ([0xFC], 7), ([0xFE, 0x80], 10),
    ]

    /// Whether `address` (an IPv4 or IPv6 literal) is loopback, private, link-local or otherwise internal.
    /// Text that is no address at all counts as private: it cannot be shown to be public.
    public static func isPrivate(_ address: String) -> Bool {
        let bare = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        if let v4 = bytes(bare, family: AF_INET, count: 4) {
            return matches(v4, blockedV4)
        }
        guard let v6 = bytes(bare.split(separator: "%").first.map(String.init) ?? bare, family: AF_INET6, count: 16) else {
            return true
        }
        // IPv4-mapped addresses (::ffff:a.b.c.d) reach the IPv4 host they embed.
        if v6[0..<10].allSatisfy({ $0 == 0 }) && v6[10] == 0xFF && v6[11] == 0xFF {
            return matches(Array(v6[12...]), blockedV4)
        }
        return matches(v6, blockedV6)
    }

    /// Whether `host` is an IP literal rather than a name.
    public static func isAddressLiteral(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bytes(bare, family: AF_INET, count: 4) != nil || bytes(bare, family: AF_INET6, count: 16) != nil
    }

    private static func matches(_ address: [UInt8], _ ranges: [(prefix: [UInt8], bits: Int)]) -> Bool {
        ranges.contains { range in
            var remaining = range.bits
            for (index, byte) in address.enumerated() where remaining > 0 {
                let prefixByte = index < range.prefix.count ? range.prefix[index] : 0
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if byte & mask != prefixByte & mask { return false }
                remaining -= 8
            }
            return true
        }
    }

    private static func bytes(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let parsed = text.withCString { pointer in buffer.withUnsafeMutableBytes { inet_pton(family, pointer, $0.baseAddress) } }
        return parsed == 1 ? Array(buffer[0..<count]) : nil
    }
}
