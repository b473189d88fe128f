/// The SSRF rule, at creation and again before every delivery (DNS can change between the two).
///
/// The rule is here and the resolver is given, so the rule stays free of a DNS client: the system's resolver
/// is `PushTallyUseCases`' `WebhookURLGuard(allowPrivate:)`, and a test's decides what a name resolves to
/// without a DNS server, to show where the connection goes. Public because the server's routes, its
/// deliveries and the CLI's local path must all refuse the same receivers.
public struct WebhookURLGuard: Sendable {
    /// `serve --allow-private-webhooks`: for receivers on the collector's own network, and for tests.
    public let allowPrivate: Bool
    /// Every address a host resolves to.
    let resolve: @Sendable (String) async throws -> [String]

    /// - Parameter resolve: every address a host resolves to, as text (the host itself when it is an address
    ///   literal); throws ``Unresolvable`` when the name has none, any other error being passed on as it is.
    public init(allowPrivate: Bool, resolve: @escaping @Sendable (String) async throws -> [String]) {
        self.allowPrivate = allowPrivate
        self.resolve = resolve
    }

    /// What a resolver throws for a name it cannot resolve: the guard's `unresolvable_host`.
    public struct Unresolvable: Error {
        /// The resolver's reason (`getaddrinfo`'s message), quoted in the refusal.
        public let reason: String

        /// - Parameter reason: why the name did not resolve, as the refusal will say it.
        public init(reason: String) {
            self.reason = reason
        }
    }

    /// The address to connect to: the first the host resolves to, once every one of them is allowed.
    /// - Throws: ``FieldError`` (`private_address`, `unresolvable_host`) naming `field`.
    public func approvedAddress(for url: WebhookURL, field: String = "url") async throws -> String {
        let addresses: [String]
        do {
            addresses = try await resolve(url.host)
        } catch let error as Unresolvable {
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
