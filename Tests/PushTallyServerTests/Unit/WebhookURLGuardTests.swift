import Foundation
import PushTallyUseCases
import Testing

@testable import PushTallyCore

/// The SSRF rule as the server and the CLI apply it: every special-purpose address is refused with the range it
/// falls in, and `--allow-private-webhooks` lets every one of them through.
@Suite struct WebhookURLGuardTests {
    /// A guard whose resolver answers `addresses` for any name, so no DNS server is involved.
    func guardResolving(to addresses: [String], allowPrivate: Bool) -> WebhookURLGuard {
        WebhookURLGuard(allowPrivate: allowPrivate) { _ in addresses }
    }

    func refusal(_ urlGuard: WebhookURLGuard, _ url: String) async throws -> FieldError? {
        do {
            _ = try await urlGuard.approvedAddress(for: try WebhookURL(url))
            return nil
        } catch let error as FieldError {
            return error
        }
    }

    /// The first address of every row of the table, through a name: refused without the flag, approved with it.
    @Test func everySpecialPurposeRangePassesOnlyWithAllowPrivate() async throws {
        for block in WebhookAddressPolicy.blocks {
            let address = String(block.notation.prefix { $0 != "/" })
            let refused = try await refusal(guardResolving(to: [address], allowPrivate: false), "https://hooks.example.com/in")
            #expect(refused?.code == "private_address" && refused?.field == "url", "\(block.notation): \(String(describing: refused))")
            let approved = try await guardResolving(to: [address], allowPrivate: true)
                .approvedAddress(for: try WebhookURL("https://hooks.example.com/in"))
            #expect(approved == address)
        }
    }

    @Test(arguments: [
        "http://127.0.0.1/hook", "http://169.254.169.254/latest/meta-data", "http://[64:ff9b::a9fe:a9fe]/hook",
        "http://[::ffff:7f00:1]:8080/hook", "http://[0:0:0:0:0:ffff:7f00:1]/hook", "http://[2002:a9fe:a9fe::1]/hook",
        "http://[fe80::1]/hook", "http://203.0.113.10/hook", "http://198.18.0.1/hook", "http://[2001:db8::1]/hook",
        "http://[ff02::1]/hook", "http://255.255.255.255/hook",
    ])
    func addressLiteralsPassOnlyWithAllowPrivate(url: String) async throws {
        let refused = try await refusal(WebhookURLGuard(allowPrivate: false), url)
        #expect(refused?.code == "private_address", "\(String(describing: refused))")
        #expect(refused?.message.contains("--allow-private-webhooks") == true)
        #expect(try await refusal(WebhookURLGuard(allowPrivate: true), url) == nil)
    }

    @Test func theRefusalNamesTheRangeAndWhatEmbedsIt() async throws {
        let literal = try await refusal(WebhookURLGuard(allowPrivate: false), "http://[64:ff9b::a9fe:a9fe]/hook")
        #expect(
            literal?.message == "169.254.169.254 (embedded in 64:ff9b::a9fe:a9fe) is link-local (169.254.0.0/16), not a public "
                + "address; start the server with --allow-private-webhooks to allow it")
        let named = try await refusal(guardResolving(to: ["2606:4700::1111", "::ffff:10.0.0.7"], allowPrivate: false), "https://intranet.example/x")
        #expect(
            named?.message == "intranet.example resolves to 10.0.0.7 (embedded in ::ffff:10.0.0.7), which is private-use (10.0.0.0/8), "
                + "not a public address; start the server with --allow-private-webhooks to allow it")
        let plain = try await refusal(WebhookURLGuard(allowPrivate: false), "http://198.18.0.1/hook")
        #expect(plain?.message.hasPrefix("198.18.0.1 is benchmarking (198.18.0.0/15), not a public address;") == true)
    }

    @Test func publicAddressesNeedNoFlag() async throws {
        for url in ["http://93.184.216.34/hook", "http://198.20.0.0/hook", "http://[2606:4700::1111]/hook", "http://[64:ff9b::808:808]/hook"] {
            #expect(try await refusal(WebhookURLGuard(allowPrivate: false), url) == nil, "\(url)")
        }
        let approved = try await guardResolving(to: ["8.8.8.8", "2606:4700::1111"], allowPrivate: false)
            .approvedAddress(for: try WebhookURL("https://hooks.example.com/in"))
        #expect(approved == "8.8.8.8")
    }
}
