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

    struct Unresolvable: Error {
        let reason: String
    }

    private static func resolve(_ host: String) throws -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            throw Unresolvable(reason: String(cString: gai_strerror(status)))
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

/// The SSRF rule, at creation and again before every delivery (DNS can change between the two).
/// Public because the CLI stores endpoints in the database directly and must refuse what the server refuses.
public struct WebhookURLGuard: Sendable {
    /// `serve --allow-private-webhooks`: for receivers on the collector's own network, and for tests.
    public let allowPrivate: Bool
    /// Every address a host resolves to: the system's resolver, or a test's (which decides what a name resolves
    /// to without a DNS server, to show where the connection goes).
    let resolve: @Sendable (String) async throws -> [String]

    public init(allowPrivate: Bool) {
        self.init(allowPrivate: allowPrivate, resolve: HostResolver.addresses(of:))
    }

    init(allowPrivate: Bool, resolve: @escaping @Sendable (String) async throws -> [String]) {
        self.allowPrivate = allowPrivate
        self.resolve = resolve
    }

    /// The address to connect to: the first the host resolves to, once every one of them is allowed.
    /// - Throws: ``FieldError`` (`private_address`, `unresolvable_host`) naming `field`.
    public func approvedAddress(for url: WebhookURL, field: String = "url") async throws -> String {
        let addresses: [String]
        do {
            addresses = try await resolve(url.host)
        } catch let error as HostResolver.Unresolvable {
            throw FieldError("unresolvable_host", "\(url.host) does not resolve: \(error.reason)", field: field)
        }
        guard let first = addresses.first else {
            throw FieldError("unresolvable_host", "\(url.host) resolves to no address", field: field)
        }
        // Every address, not only the first: a name with one public and one private address could be
        // connected to the private one by a later lookup.
        if !allowPrivate, let refusal = addresses.lazy.compactMap(WebhookAddressPolicy.refusal(for:)).first {
            let reason = WebhookAddressPolicy.isAddressLiteral(url.host)
                ? refusal.description
                : "\(url.host) resolves to \(refusal.subject), which is \(refusal.range), not a public address"
            throw FieldError(
                "private_address", reason + "; start the server with --allow-private-webhooks to allow it", field: field)
        }
        return first
    }
}
