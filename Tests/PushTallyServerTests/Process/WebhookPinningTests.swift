import Foundation
import PushTallyCore
import PushTallyTestSupport
import PushTallyUseCases
import Testing

@testable import PushTallyServer

/// The promise of docs/WEBHOOKS.md that a delivery connects to the address the SSRF check approved, not to whatever the
/// host name resolves to when the connection is made (DNS can change between the two).
@Suite struct WebhookPinningTests {
    /// A name no DNS server answers (`.invalid` is reserved, RFC 6761): only the approved address reaches the receiver.
    static let host = "receiver.pushtally.invalid"
    static let secret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

    @Test func theConnectionGoesToTheAddressTheCheckApproved() async throws {
        // The premise: the system resolver does not know the name, so a connection that looked it up again fails.
        await #expect(throws: FieldError.self) {
            _ = try await WebhookURLGuard(allowPrivate: true).approvedAddress(for: try WebhookURL("http://\(Self.host):1/hook"))
        }
        let receiver = try await WebhookReceiver()
        defer { receiver.stop() }
        try receiver.setSecret(Self.secret)
        let sender = WebhookSender(urlGuard: WebhookURLGuard(allowPrivate: true) { name in
            name == Self.host ? ["127.0.0.1"] : []
        })
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let delivery = ClaimedDelivery(
            messageID: "msg_pinned", endpointID: "ep_pinned", url: "http://\(Self.host):\(receiver.port)/hook", secret: Self.secret,
            body: #"{"type":"push.registered","timestamp":"2026-11-24T00:00:00Z","data":{"push_id":"p1"}}"#, attempts: 0,
            firstAttemptMillis: nil, leasedUntilMillis: now + 60_000)
        let result = await sender.send(delivery, at: now)
        await sender.shutdown()
        #expect(result == .delivered(status: 200), "\(result)")
        let got = try await receiver.wait(seconds: 10) { !$0.isEmpty }
        #expect(got.count == 1)
        #expect(got.first?.verified == true, "\(receiver.errors)")
        #expect(got.first?.id == "msg_pinned")
    }

    @Test func anAddressTheCheckNoLongerAllowsIsNotConnectedTo() async throws {
        // The name now resolves to a loopback address and private receivers are not allowed: no request is made.
        let sender = WebhookSender(urlGuard: WebhookURLGuard(allowPrivate: false) { _ in ["127.0.0.1"] })
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let delivery = ClaimedDelivery(
            messageID: "msg_blocked", endpointID: "ep", url: "http://\(Self.host):9/hook", secret: Self.secret, body: "{}",
            attempts: 0, firstAttemptMillis: nil, leasedUntilMillis: now + 60_000)
        let result = await sender.send(delivery, at: now)
        await sender.shutdown()
        guard case .failed(status: nil, let error) = result else { Issue.record("\(result)"); return }
        #expect(error.contains("127.0.0.1"))
    }
}
