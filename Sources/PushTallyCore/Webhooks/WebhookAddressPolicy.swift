#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which addresses a webhook may reach: public ones only, unless the operator allows private networks.
/// A receiver URL is otherwise a way to make the collector call into its own network (SSRF).
public enum WebhookAddressPolicy {
    /// Why an address is not public: what was judged (an embedded IPv4 address names the IPv6 one that carries
    /// it) and the range it falls in.
    public struct Refusal: Sendable, Equatable, CustomStringConvertible {
        /// The address judged, e.g. `169.254.169.254 (embedded in 64:ff9b::a9fe:a9fe)`.
        public let subject: String
        /// The range it falls in, e.g. `link-local (169.254.0.0/16)`.
        public let range: String

        public var description: String { "\(subject) is \(range), not a public address" }
    }

    /// How a range is judged.
    enum Judgement {
        /// Never a public receiver.
        case refused
        /// Reaches the IPv4 address in bytes `offset..<offset + 4`, so it is as public as that address.
        case embedsIPv4(offset: Int)
        /// Teredo: refused whatever it embeds (the registry lists it as not globally reachable), but named by the
        /// IPv4 server or client it carries when one of those is internal, since that is where the tunnel leads.
        case teredo
    }

    struct Block {
        let prefix: [UInt8]
        let bits: Int
        let notation: String
        let name: String
        let judgement: Judgement
    }

    /// The special-purpose ranges, after the IANA IPv4 and IPv6 Special-Purpose Address Registries plus multicast
    /// and reserved space. The longest matching prefix decides, so a block can carve an exception or a narrower
    /// name out of a wider one. An IPv6 address outside global unicast (2000::/3) that no row matches is refused too.
    static let blocks: [Block] = [
        // IPv4
        row("0.0.0.0/8", "\"this network\""),  // "This network"; 0.0.0.0 reaches the local host on Linux
        row("10.0.0.0/8", "private-use"),  // Private-Use
        row("100.64.0.0/10", "carrier-grade NAT shared address space"),  // Shared Address Space
        row("127.0.0.0/8", "loopback"),  // Loopback
        row("169.254.0.0/16", "link-local"),  // Link Local; cloud metadata lives at 169.254.169.254
        row("172.16.0.0/12", "private-use"),  // Private-Use
        row("192.0.0.0/24", "an IETF protocol assignment"),  // IETF Protocol Assignments (DS-Lite, PCP, TURN, NAT64 discovery)
        row("192.0.2.0/24", "documentation TEST-NET-1"),  // Documentation (TEST-NET-1)
        row("192.31.196.0/24", "AS112-v4"),  // AS112-v4
        row("192.52.193.0/24", "AMT"),  // AMT
        row("192.88.99.0/24", "deprecated 6to4 relay anycast"),  // Deprecated (6to4 Relay Anycast)
        row("192.168.0.0/16", "private-use"),  // Private-Use
        row("192.175.48.0/24", "AS112 direct delegation"),  // Direct Delegation AS112 Service
        row("198.18.0.0/15", "benchmarking"),  // Benchmarking
        row("198.51.100.0/24", "documentation TEST-NET-2"),  // Documentation (TEST-NET-2)
        row("203.0.113.0/24", "documentation TEST-NET-3"),  // Documentation (TEST-NET-3)
        row("224.0.0.0/4", "multicast"),  // IPv4 Multicast Address Space
        row("240.0.0.0/4", "reserved"),  // Reserved
        row("255.255.255.255/32", "limited broadcast"),  // Limited Broadcast
        // IPv6
        row("::/128", "unspecified"),  // Unspecified Address
        row("::1/128", "loopback"),  // Loopback Address
        row("::/96", "IPv4-compatible", .embedsIPv4(offset: 12)),  // IPv4-compatible (deprecated, RFC 4291)
        row("::ffff:0:0/96", "IPv4-mapped", .embedsIPv4(offset: 12)),  // IPv4-mapped Address
        row("::ffff:0:0:0/96", "IPv4-translated", .embedsIPv4(offset: 12)),  // IPv4-translated (SIIT, RFC 2765)
        row("64:ff9b::/96", "NAT64", .embedsIPv4(offset: 12)),  // IPv4-IPv6 Translat. (well-known prefix)
        // IPv4-IPv6 Translat. (local-use): the operator picks where the IPv4 address sits (RFC 6052 allows
        // several layouts), so what it embeds cannot be read from the address alone.
        row("64:ff9b:1::/48", "local-use NAT64"),
        row("100::/64", "discard-only"),  // Discard-Only Address Block
        row("100:0:0:1::/64", "the dummy prefix"),  // Dummy IPv6 Prefix
        row("2001::/23", "an IETF protocol assignment"),  // IETF Protocol Assignments
        row("2001::/32", "Teredo", .teredo),  // TEREDO
        row("2001:1::1/128", "PCP anycast"),  // Port Control Protocol Anycast
        row("2001:1::2/128", "TURN anycast"),  // Traversal Using Relays around NAT Anycast
        row("2001:1::3/128", "DNS-SD SRP anycast"),  // DNS-SD Service Registration Protocol Anycast
        row("2001:2::/48", "benchmarking"),  // Benchmarking
        row("2001:3::/32", "AMT"),  // AMT
        row("2001:4:112::/48", "AS112-v6"),  // AS112-v6
        row("2001:10::/28", "deprecated ORCHID"),  // Deprecated (previously ORCHID)
        row("2001:20::/28", "ORCHIDv2"),  // ORCHIDv2
        row("2001:30::/28", "drone remote ID entity tags"),  // Drone Remote ID Protocol Entity Tags (DETs) Prefix
        row("2001:db8::/32", "documentation"),  // Documentation
        row("2002::/16", "6to4", .embedsIPv4(offset: 2)),  // 6to4
        row("2620:4f:8000::/48", "AS112 direct delegation"),  // Direct Delegation AS112 Service
        row("3fff::/20", "documentation"),  // Documentation
        row("5f00::/16", "SRv6 segment identifiers"),  // Segment Routing (SRv6) SIDs
        row("fc00::/7", "unique-local"),  // Unique-Local
        row("fe80::/10", "link-local"),  // Link-Local Unicast
        row("fec0::/10", "deprecated site-local"),  // Site-local (deprecated, RFC 3879)
        row("ff00::/8", "multicast"),  // IPv6 Multicast Address Space
    ]

    /// Global unicast: the only IPv6 space that holds public receivers.
    static let globalUnicast = row("2000::/3", "global unicast")

    /// Whether `address` (an IPv4 or IPv6 literal) is loopback, private, link-local or otherwise not public.
    /// Text that is no address at all counts as private: it cannot be shown to be public.
    public static func isPrivate(_ address: String) -> Bool {
        refusal(for: address) != nil
    }

    /// Why `address` is no public receiver, or nil when it is one.
    public static func refusal(for address: String) -> Refusal? {
        let bare = address.hasPrefix("[") && address.hasSuffix("]") ? String(address.dropFirst().dropLast()) : address
        if let v4 = bytes(bare, family: AF_INET, count: 4) {
            return judgeIPv4(v4, subject: bare)
        }
        let withoutZone = bare.split(separator: "%", omittingEmptySubsequences: false).first.map(String.init) ?? bare
        guard let v6 = bytes(withoutZone, family: AF_INET6, count: 16) else {
            return Refusal(subject: address, range: "not an IP address")
        }
        guard let range = longestMatch(v6) else {
            return matches(v6, globalUnicast) ? nil : Refusal(subject: withoutZone, range: "outside \(globalUnicast.label)")
        }
        switch range.judgement {
        case .refused:
            return Refusal(subject: withoutZone, range: range.label)
        case .embedsIPv4(let offset):
            return judgeIPv4(Array(v6[offset..<offset + 4]), subject: nil, embeddedIn: withoutZone)
        case .teredo:
            let server = Array(v6[4..<8])
            let client = v6[12..<16].map { ~$0 }  // the client address is stored inverted (RFC 4380)
            for embedded in [server, client] {
                if let refusal = judgeIPv4(embedded, subject: nil, embeddedIn: withoutZone) { return refusal }
            }
            return Refusal(subject: withoutZone, range: range.label)
        }
    }

    /// Whether `host` is an IP literal rather than a name.
    public static func isAddressLiteral(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bytes(bare, family: AF_INET, count: 4) != nil || bytes(bare, family: AF_INET6, count: 16) != nil
    }

    private static func judgeIPv4(_ address: [UInt8], subject: String?, embeddedIn carrier: String? = nil) -> Refusal? {
        guard let range = longestMatch(address) else { return nil }
        let text = subject ?? address.map(String.init).joined(separator: ".")
        return Refusal(subject: carrier.map { "\(text) (embedded in \($0))" } ?? text, range: range.label)
    }

    private static func longestMatch(_ address: [UInt8]) -> Block? {
        blocks.filter { $0.prefix.count == address.count && matches(address, $0) }.max { $0.bits < $1.bits }
    }

    private static func matches(_ address: [UInt8], _ range: Block) -> Bool {
        var remaining = range.bits
        for (byte, prefixByte) in zip(address, range.prefix) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if byte & mask != prefixByte & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// A row of the table: `notation` (an address, `/`, a prefix length) read with inet_pton.
    private static func row(_ notation: String, _ name: String, _ judgement: Judgement = .refused) -> Block {
        let parts = notation.split(separator: "/")
        let address = String(parts[0])
        guard parts.count == 2, let bits = Int(parts[1]),
            let prefix = bytes(address, family: AF_INET, count: 4) ?? bytes(address, family: AF_INET6, count: 16),
            (0...prefix.count * 8).contains(bits)
        else {
            preconditionFailure("malformed range \(notation)")
        }
        return Block(prefix: prefix, bits: bits, notation: notation, name: name, judgement: judgement)
    }

    private static func bytes(_ text: String, family: Int32, count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let parsed = text.withCString { pointer in buffer.withUnsafeMutableBytes { inet_pton(family, pointer, $0.baseAddress) } }
        return parsed == 1 ? Array(buffer[0..<count]) : nil
    }
}

extension WebhookAddressPolicy.Block {
    /// `link-local (169.254.0.0/16)`.
    var label: String { "\(name) (\(notation))" }
}
