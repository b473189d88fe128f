import Foundation
import Testing

@testable import PushTallyCore

@Suite struct WebhookSecretTests {
    @Test func signsTheStandardWebhooksSpecVector() {
        let signature = WebhookSecret.signature(
            messageID: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestampSeconds: 1_614_265_330, body: Data(#"{"test": 2432232314}"#.utf8),
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
    }

    /// Computed independently with Python's hmac over the key bytes 0...31 and a body with non-ASCII text,
    /// so the body is signed as its UTF-8 bytes.
    @Test func signsUTF8BodiesAsPythonsHMACDoes() {
        let signature = WebhookSecret.signature(
            messageID: "msg_abc", timestampSeconds: 1_700_000_000,
            body: Data(#"{"type":"alert.firing","data":{"name":"新"}}"#.utf8),
            secret: "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=")
        #expect(signature == "v1,plrZ04826GrY0XKu+Lc2J2zTuTBjNe9egpBTpONYR0Y=")
    }

    @Test func refusesSecretsThatAreNotWhsecBase64() {
        #expect(WebhookSecret.signature(messageID: "m", timestampSeconds: 1, body: Data(), secret: "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw") == nil)
        #expect(WebhookSecret.signature(messageID: "m", timestampSeconds: 1, body: Data(), secret: "whsec_***") == nil)
    }

    @Test func generatesThirtyTwoRandomBytes() throws {
        let a = WebhookSecret.generate()
        #expect(a.hasPrefix("whsec_"))
        #expect(try #require(WebhookSecret.keyBytes(a)).count == 32)
        #expect(a != WebhookSecret.generate())
    }
}

@Suite struct WebhookAddressPolicyTests {
    /// An address inside every special-purpose range, and the range its refusal names: the IANA IPv4 and IPv6
    /// Special-Purpose Address Registries, multicast, reserved space, IPv6 outside global unicast, and IPv6
    /// addresses that carry an IPv4 one, judged by what they carry.
    @Test(arguments: [
        // IPv4
        ("0.0.0.0", #"0.0.0.0 is "this network" (0.0.0.0/8)"#), ("0.1.2.3", "(0.0.0.0/8)"),
        ("10.0.0.0", "10.0.0.0 is private-use (10.0.0.0/8)"), ("10.255.255.255", "(10.0.0.0/8)"),
        ("100.64.0.1", "carrier-grade NAT shared address space (100.64.0.0/10)"), ("100.127.255.255", "(100.64.0.0/10)"),
        ("127.0.0.1", "127.0.0.1 is loopback (127.0.0.0/8)"), ("127.255.255.254", "(127.0.0.0/8)"),
        ("169.254.169.254", "169.254.169.254 is link-local (169.254.0.0/16)"), ("169.254.0.1", "(169.254.0.0/16)"),
        ("172.16.0.0", "private-use (172.16.0.0/12)"), ("172.31.255.255", "(172.16.0.0/12)"),
        ("192.0.0.0", "an IETF protocol assignment (192.0.0.0/24)"), ("192.0.0.170", "(192.0.0.0/24)"),
        ("192.0.2.1", "documentation TEST-NET-1 (192.0.2.0/24)"), ("192.31.196.1", "AS112-v4 (192.31.196.0/24)"),
        ("192.52.193.1", "AMT (192.52.193.0/24)"), ("192.88.99.1", "deprecated 6to4 relay anycast (192.88.99.0/24)"),
        ("192.168.0.1", "private-use (192.168.0.0/16)"), ("192.168.255.255", "(192.168.0.0/16)"),
        ("192.175.48.1", "AS112 direct delegation (192.175.48.0/24)"),
        ("198.18.0.0", "benchmarking (198.18.0.0/15)"), ("198.19.255.255", "benchmarking (198.18.0.0/15)"),
        ("198.51.100.7", "documentation TEST-NET-2 (198.51.100.0/24)"), ("203.0.113.10", "documentation TEST-NET-3 (203.0.113.0/24)"),
        ("224.0.0.1", "multicast (224.0.0.0/4)"), ("239.255.255.255", "multicast (224.0.0.0/4)"),
        ("240.0.0.1", "reserved (240.0.0.0/4)"), ("255.255.255.254", "reserved (240.0.0.0/4)"),
        ("255.255.255.255", "limited broadcast (255.255.255.255/32)"),
        // IPv6
        ("::", ":: is unspecified (::/128)"), ("::1", "::1 is loopback (::1/128)"), ("[::1]", "::1 is loopback (::1/128)"),
        ("fc00::", "unique-local (fc00::/7)"), ("fd12::1", "unique-local (fc00::/7)"), ("fdff:ffff::1", "(fc00::/7)"),
        ("fe80::1", "fe80::1 is link-local (fe80::/10)"), ("fe80::1%eth0", "fe80::1 is link-local (fe80::/10)"),
        ("febf::1", "link-local (fe80::/10)"), ("fec0::1", "deprecated site-local (fec0::/10)"),
        ("ff02::1", "multicast (ff00::/8)"), ("ff0e::101", "multicast (ff00::/8)"),
        ("100::1", "discard-only (100::/64)"), ("100::ffff:ffff:ffff:ffff", "(100::/64)"), ("100:0:0:1::1", "the dummy prefix (100:0:0:1::/64)"),
        ("2001:5::1", "an IETF protocol assignment (2001::/23)"), ("2001:1ff:ffff::1", "(2001::/23)"),
        ("2001:1::1", "PCP anycast (2001:1::1/128)"), ("2001:1::2", "TURN anycast (2001:1::2/128)"),
        ("2001:1::3", "DNS-SD SRP anycast (2001:1::3/128)"), ("2001:2::1", "benchmarking (2001:2::/48)"),
        ("2001:3::1", "AMT (2001:3::/32)"), ("2001:4:112::1", "AS112-v6 (2001:4:112::/48)"),
        ("2001:10::1", "deprecated ORCHID (2001:10::/28)"), ("2001:20::1", "ORCHIDv2 (2001:20::/28)"),
        ("2001:2f:ffff::1", "ORCHIDv2 (2001:20::/28)"), ("2001:30::1", "drone remote ID entity tags (2001:30::/28)"),
        ("2001:db8::1", "2001:db8::1 is documentation (2001:db8::/32)"), ("2001:db8:ffff::1", "(2001:db8::/32)"),
        ("3fff::1", "documentation (3fff::/20)"), ("3fff:fff:ffff::1", "documentation (3fff::/20)"),
        ("2620:4f:8000::1", "AS112 direct delegation (2620:4f:8000::/48)"), ("5f00::1", "SRv6 segment identifiers (5f00::/16)"),
        ("64:ff9b:1::808:808", "local-use NAT64 (64:ff9b:1::/48)"),
        // Teredo: refused, named by an internal server or (inverted) client when it carries one.
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2001:0:4136:e378:8000:63bf:f7f7:f7f7 is Teredo (2001::/32)"),
        ("2001:0:a00:1::ffff:ffff", "10.0.0.1 (embedded in 2001:0:a00:1::ffff:ffff) is private-use (10.0.0.0/8)"),
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45 (embedded in 2001:0:4136:e378:8000:63bf:3fff:fdd2) is documentation"),
        // Outside global unicast (2000::/3), in no registry row.
        ("fbff::1", "fbff::1 is outside global unicast (2000::/3)"), ("1fff:ffff::1", "outside global unicast (2000::/3)"),
        ("4000::1", "outside global unicast"), ("e000::1", "outside global unicast"), ("::1:0:0:0", "outside global unicast"),
        // Addresses that carry an IPv4 one, judged by it.
        ("64:ff9b::a9fe:a9fe", "169.254.169.254 (embedded in 64:ff9b::a9fe:a9fe) is link-local (169.254.0.0/16), not a public address"),
        ("64:ff9b::10.0.0.1", "10.0.0.1 (embedded in 64:ff9b::10.0.0.1) is private-use"), ("64:ff9b::7f00:1", "127.0.0.1 (embedded in"),
        ("2002:a9fe:a9fe::1", "169.254.169.254 (embedded in 2002:a9fe:a9fe::1) is link-local"),
        ("2002:7f00:1::", "127.0.0.1 (embedded in 2002:7f00:1::) is loopback"), ("2002:c0a8:101::1", "192.168.1.1 (embedded in"),
        ("2002:c058:6301::", "192.88.99.1 (embedded in 2002:c058:6301::) is deprecated 6to4 relay anycast"),
        ("2002::", "0.0.0.0 (embedded in 2002::)"),
        ("::2", #"0.0.0.2 (embedded in ::2) is "this network""#), ("::127.0.0.1", "127.0.0.1 (embedded in ::127.0.0.1) is loopback"),
        ("::a9fe:a9fe", "169.254.169.254 (embedded in ::a9fe:a9fe) is link-local"), ("::10.1.2.3", "private-use"),
        ("::ffff:127.0.0.1", "127.0.0.1 (embedded in ::ffff:127.0.0.1) is loopback (127.0.0.0/8)"),
        ("::ffff:7f00:1", "127.0.0.1 (embedded in ::ffff:7f00:1) is loopback"), ("::FFFF:7F00:1", "127.0.0.1 (embedded in ::FFFF:7F00:1)"),
        ("::ffff:7f00:0001", "127.0.0.1 (embedded in"), ("0:0:0:0:0:ffff:7f00:1", "127.0.0.1 (embedded in 0:0:0:0:0:ffff:7f00:1)"),
        ("0000:0000:0000:0000:0000:FFFF:7F00:0001", "is loopback"), ("[::ffff:127.0.0.1]", "is loopback"),
        ("::ffff:10.1.2.3", "private-use"), ("::ffff:169.254.169.254", "link-local"), ("::ffff:a9fe:a9fe", "link-local"),
        ("::ffff:0:127.0.0.1", "127.0.0.1 (embedded in ::ffff:0:127.0.0.1) is loopback"),
        ("::ffff:0:a9fe:a9fe", "169.254.169.254 (embedded in ::ffff:0:a9fe:a9fe) is link-local"),
        ("::ffff:0.0.0.0", "0.0.0.0 (embedded in ::ffff:0.0.0.0)"),
        // No address at all cannot be shown to be public.
        ("not an address", "is not an IP address"), ("", "is not an IP address"), ("10.0.0", "is not an IP address"),
    ])
    func refusesEverySpecialPurposeRange(address: String, named: String) throws {
        #expect(WebhookAddressPolicy.isPrivate(address))
        let refusal = try #require(WebhookAddressPolicy.refusal(for: address))
        #expect(refusal.description.contains(named), "\(refusal)")
        #expect(refusal.description.hasSuffix(", not a public address"))
    }

    /// Neighbours just outside each range, and addresses that carry a public IPv4 address.
    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "93.184.216.34", "1.0.0.0", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0",
        "126.255.255.255", "128.0.0.1", "169.253.255.255", "169.255.0.1", "172.15.255.255", "172.32.0.1", "191.255.255.255",
        "192.0.1.255", "192.0.3.0", "192.31.195.255", "192.31.197.0", "192.52.192.255", "192.52.194.0", "192.88.98.255",
        "192.88.100.0", "192.167.255.255", "192.169.0.1", "192.175.47.255", "192.175.49.0", "198.17.255.255", "198.20.0.0",
        "198.51.99.255", "198.51.101.0", "203.0.112.255", "203.0.114.0", "223.255.255.255",
        "2606:4700::1111", "[2606:4700::1111]", "2001:4860:4860::8888", "2000::1", "2001:200::1", "2001:db7:ffff::1",
        "2001:db9::1", "2620:4f:7fff::1", "2620:4f:8001::1", "3ffe:ffff::1", "3fff:1000::1",
        "2002:808:808::1", "64:ff9b::808:808", "64:ff9b::8.8.8.8", "::ffff:8.8.8.8", "::ffff:808:808",
        "0:0:0:0:0:ffff:808:808", "::ffff:0:808:808", "::8.8.8.8", "::ffff:198.20.0.0", "64:ff9b::c614:0",
    ])
    func allowsPublicAddresses(address: String) {
        #expect(!WebhookAddressPolicy.isPrivate(address), "\(String(describing: WebhookAddressPolicy.refusal(for: address)))")
    }

    /// Every row of the table refuses its own first address, so no row is shadowed into allowing anything.
    @Test func refusesTheFirstAddressOfEveryRow() {
        for block in WebhookAddressPolicy.blocks {
            let first = String(block.notation.prefix { $0 != "/" })
            #expect(WebhookAddressPolicy.isPrivate(first), "\(block.notation)")
        }
    }

    @Test func tellsLiteralsFromNames() {
        #expect(WebhookAddressPolicy.isAddressLiteral("93.184.216.34"))
        #expect(WebhookAddressPolicy.isAddressLiteral("[2606:4700::1111]"))
        #expect(!WebhookAddressPolicy.isAddressLiteral("example.com"))
        #expect(!WebhookAddressPolicy.isAddressLiteral("10.0.0"))
    }
}

@Suite struct WebhookRetryPolicyTests {
    let policy = WebhookRetryPolicy(baseDelayMillis: 5_000, maximumDelayMillis: 60_000, windowMillis: 3_600_000)

    @Test func delaysDoubleWithTheUpperHalfJittered() {
        for (failures, step) in [(1, 5_000), (2, 10_000), (3, 20_000), (4, 40_000)] as [(Int, Int64)] {
            #expect(policy.delayMillis(afterFailures: failures, random: 0) == step / 2)
            #expect(policy.delayMillis(afterFailures: failures, random: 0.5) == step * 3 / 4)
            #expect(policy.delayMillis(afterFailures: failures, random: 0.999_999) == step - 1)
        }
        // Zero failures reads as the first step, not a fraction of it.
        #expect(policy.delayMillis(afterFailures: 0, random: 0) == 2_500)
        for _ in 0..<200 {
            #expect((5_000...10_000).contains(policy.delayMillis(afterFailures: 2)))
        }
    }

    @Test func delaysAreCapped() {
        #expect(policy.delayMillis(afterFailures: 5, random: 0.999_999) == 59_999)
        #expect(policy.delayMillis(afterFailures: 5, random: 0) == 30_000)
        // A huge failure count neither overflows nor exceeds the cap.
        #expect(policy.delayMillis(afterFailures: 10_000, random: 0.999_999) == 59_999)
        #expect(WebhookRetryPolicy(baseDelayMillis: 0, maximumDelayMillis: 0).baseDelayMillis == 1)
    }

    @Test func theWindowsEndGivesNil() throws {
        let first: Int64 = 1_000_000
        #expect(policy.nextAttempt(afterFailures: 1, firstAttemptMillis: first, now: first + 3_600_000) == nil)
        #expect(policy.nextAttempt(afterFailures: 1, firstAttemptMillis: first, now: first + 9_999_999) == nil)
        // Near the end the next attempt is the end itself: a last try is always made.
        #expect(policy.nextAttempt(afterFailures: 9, firstAttemptMillis: first, now: first + 3_599_000) == first + 3_600_000)
        let next = try #require(policy.nextAttempt(afterFailures: 1, firstAttemptMillis: first, now: first))
        #expect((first + 2_500...first + 5_000).contains(next))
    }
}

@Suite struct DeliveryUpdateTests {
    let policy = WebhookRetryPolicy(baseDelayMillis: 5_000, maximumDelayMillis: 60_000, windowMillis: 3_600_000)
    let now: Int64 = 10_000_000

    func delivery(attempts: Int = 0, first: Int64? = nil) -> ClaimedDelivery {
        ClaimedDelivery(
            messageID: "msg_1", endpointID: "wh_1", url: "https://example.com", secret: "whsec_AA==", body: "{}",
            attempts: attempts, firstAttemptMillis: first, leasedUntilMillis: now + 25_000)
    }

    @Test func twoHundredsDeliverAndActivate() {
        let update = DeliveryUpdate(.delivered(status: 204), of: delivery(attempts: 3, first: now - 60_000), at: now, policy: policy)
        #expect(update.status == .delivered)
        #expect(update.httpStatus == 204)
        #expect(update.endpointStatus == .active)
        #expect(update.nextAttemptMillis == nil && update.error == nil)
        #expect(update.firstAttemptMillis == now - 60_000)
    }

    @Test func goneFailsAndDisables() {
        let update = DeliveryUpdate(.gone, of: delivery(), at: now, policy: policy)
        #expect(update.status == .failed)
        #expect(update.httpStatus == 410)
        #expect(update.endpointStatus == .disabled)
        #expect(update.nextAttemptMillis == nil)
        #expect(update.firstAttemptMillis == now)
    }

    @Test func failuresWithinTheWindowStayPending() throws {
        let update = DeliveryUpdate(.failed(status: 500, error: "500 Internal"), of: delivery(attempts: 1, first: now - 5_000), at: now, policy: policy)
        #expect(update.status == .pending)
        #expect(update.httpStatus == 500 && update.error == "500 Internal")
        #expect(update.endpointStatus == nil)
        // The second failure: a 10 s step, its upper half jittered.
        let next = try #require(update.nextAttemptMillis)
        #expect((now + 5_000...now + 10_000).contains(next))
        #expect(update.firstAttemptMillis == now - 5_000)
    }

    @Test func failuresAfterTheWindowFailAndMarkFailing() {
        let update = DeliveryUpdate(
            .failed(status: nil, error: String(repeating: "e", count: 900)), of: delivery(attempts: 30, first: now - 3_600_000),
            at: now, policy: policy)
        #expect(update.status == .failed)
        #expect(update.endpointStatus == .failing)
        #expect(update.nextAttemptMillis == nil && update.httpStatus == nil)
        #expect(update.error?.count == 500)
    }
}
