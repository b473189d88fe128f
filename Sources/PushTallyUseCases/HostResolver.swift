import Foundation
import NIOPosix
import PushTallyCore

/// Resolves a host name to its addresses off the cooperative pool (`getaddrinfo` blocks), for the SSRF check.
enum HostResolver {
    /// Every address `host` resolves to, as text; the host itself when it is an address literal.
    static func addresses(of host: String) async throws -> [String] {
        if WebhookAddressPolicy.isAddressLiteral(host) { return [host] }
        return try await NIOThreadPool.singleton.runIfActive { try resolve(host) }
    }

    private static func resolve(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw WebhookURLGuard.Unresolvable(reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var addresses: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(info.pointee.ai_addr, info.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if !addresses.contains(text) { addresses.append(text) }
            }
            cursor = info.pointee.ai_next
        }
        return addresses
    }
}

extension WebhookURLGuard {
    /// The rule with the system's resolver: what `serve` and the CLI check receivers with.
    public init(allowPrivate: Bool) {
        self.init(allowPrivate: allowPrivate, resolve: HostResolver.addresses(of:))
    }
}
