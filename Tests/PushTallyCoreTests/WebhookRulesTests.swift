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
    @Test(arguments: [
        "127.0.0.1", "127.255.255.254", "10.0.0.0", "10.255.255.255", "172.16.0.0", "172.31.255.255", "192.168.0.1",
        "192.168.255.255", "169.254.169.254", "169.254.0.1", "0.0.0.0", "0.1.2.3", "100.64.0.1", "100.127.255.255",
        "::1", "[::1]", "::", "fc00::", "fd12::1", "fdff:ffff::1", "fe80::1", "fe80::1%eth0", "febf::1",
        "::ffff:127.0.0.1", "::ffff:10.1.2.3", "::ffff:169.254.169.254", "not an address", "",
    ])
    func refusesInternalAddresses(address: String) {
        #expect(WebhookAddressPolicy.isPrivate(address))
    }

    @Test(arguments: [
        "8.8.8.8", "1.1.1.1", "9.255.255.255", "11.0.0.0", "126.255.255.255", "128.0.0.1", "172.15.255.255",
        "172.32.0.1", "192.167.255.255", "192.169.0.1", "169.253.255.255", "169.255.0.1", "100.63.255.255",
        "100.128.0.0", "2606:4700::1111", "2001:db8::1", "fbff::1", "fec0::1", "::2", "::ffff:8.8.8.8",
    ])
    func allowsPublicAddresses(address: String) {
        #expect(!WebhookAddressPolicy.isPrivate(address))
    }

    @Test func tellsLiteralsFromNames() {
        #expect(WebhookAddressPolicy.isAddressLiteral("93.184.216.34"))
        #expect(WebhookAddressPolicy.isAddressLiteral("[2606:4700::1111]"))
        #expect(!WebhookAddressPolicy.isAddressLiteral("example.com"))
        #expect(!WebhookAddressPolicy.isAddressLiteral("10.0.0"))
    }
}

@Suite struct WebhookRequestTests {
    private func parse(_ json: String) throws(FieldError) -> WebhookRequest {
        try WebhookRequest.parse(try JSONValue.parse(Data(json.utf8)))
    }

    private func error(_ json: String) -> FieldError? {
        do {
            _ = try parse(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesAValidRequest() throws {
        let request = try parse(
            #"{"url":"https://[2606:4700::1111]:8443/hook?x=1","events":["alert.firing","receipt.displayed","alert.firing"],"description":""}"#)
        #expect(request.url.host == "2606:4700::1111")
        #expect(request.url.port == 8443)
        #expect(request.url.isHTTPS)
        // Deduplicated and in the enum's order; an empty description is none.
        #expect(request.events == [.receiptDisplayed, .alertFiring])
        #expect(request.description == nil)
        let plain = try parse(#"{"url":"http://example.com/x","events":["push.registered"],"description":"ops"}"#)
        #expect(plain.url.port == 80 && !plain.url.isHTTPS && plain.description == "ops")
    }

    @Test func namesTheFieldAndCodeOfEachError() {
        let long = String(repeating: "d", count: 513)
        let cases: [(String, String, String?)] = [
            (#"["x"]"#, "malformed_json", nil),
            (#"{"url":"http://a.io","events":["alert.firing"],"secret":"s"}"#, "unknown_field", "secret"),
            (#"{"events":["alert.firing"]}"#, "missing_field", "url"),
            (#"{"url":5,"events":["alert.firing"]}"#, "bad_type", "url"),
            (#"{"url":"http://a.io"}"#, "missing_field", "events"),
            (#"{"url":"http://a.io","events":"alert.firing"}"#, "bad_type", "events"),
            (#"{"url":"http://a.io","events":["alert.exploded"]}"#, "bad_value", "events"),
            (#"{"url":"http://a.io","events":[5]}"#, "bad_value", "events"),
            (#"{"url":"http://a.io","events":[]}"#, "bad_value", "events"),
            (#"{"url":"http://a.io","events":["alert.firing"],"description":5}"#, "bad_type", "description"),
            (#"{"url":"http://a.io","events":["alert.firing"],"description":"\#(long)"}"#, "too_long", "description"),
            (#"{"url":"ftp://a.io","events":["alert.firing"]}"#, "bad_url", "url"),
        ]
        for (json, code, field) in cases {
            let found = error(json)
            #expect(found?.code == code, "\(json)")
            #expect(found?.field == field, "\(json)")
        }
    }

    @Test(arguments: [
        "ftp://example.com/x", "file:///etc/passwd", "gopher://example.com", "example.com/hook", "http://",
        "http://user:pw@example.com/", "http://user@example.com/", "http://example.com/#frag",
    ])
    func refusesURLsAWebhookCannotTake(url: String) {
        #expect {
            _ = try WebhookURL(url, field: "target")
        } throws: {
            ($0 as? FieldError)?.code == "bad_url" && ($0 as? FieldError)?.field == "target"
        }
    }

    @Test func refusesOverlongURLs() {
        let url = "https://example.com/" + String(repeating: "a", count: 2030)
        #expect { _ = try WebhookURL(url) } throws: { ($0 as? FieldError)?.code == "too_long" && ($0 as? FieldError)?.field == "url" }
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
