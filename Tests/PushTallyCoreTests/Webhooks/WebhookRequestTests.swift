import Foundation
import Testing

@testable import PushTallyCore

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
        "http://example.com/a b", "http://example.com/a\r\nb", "http://example.com/\n", "http://exa mple.com/", "http://example.com/\t",
        "http://example.com:99999999999999999999/", "http://example.com:0/", "http://example.com:65536/x",
        "http://[2606:4700::1111]:70000/", "http://example.com:8a/", "http://u@example.com:99999/",
    ])
    func refusesURLsAWebhookCannotTake(url: String) {
        #expect {
            _ = try WebhookURL(url, field: "target")
        } throws: {
            ($0 as? FieldError)?.code == "bad_url" && ($0 as? FieldError)?.field == "target"
        }
    }

    @Test func takesPortsFromOneTo65535AndEscapedText() throws {
        #expect(try WebhookURL("http://example.com:65535/x").port == 65535)
        #expect(try WebhookURL("http://example.com:1/x").port == 1)
        #expect(try WebhookURL("https://[2606:4700::1111]:00443/x").port == 443)
        // An empty port is the URL grammar's, and means the scheme's.
        #expect(try WebhookURL("http://example.com:/x").port == 80)
        #expect(try WebhookURL("http://example.com/a%20b?c=%0D%0A").url == "http://example.com/a%20b?c=%0D%0A")
    }

    @Test func namesWhatIsWrongWithAURLsText() {
        for (url, message) in [
            ("http://example.com/a b", "url holds a space; percent-encode it (a space is %20)"),
            ("http://example.com/a\rb", "url holds a carriage return (CR); percent-encode it"),
            ("http://example.com/a\nb", "url holds a line feed (LF); percent-encode it"),
            ("http://example.com:99999999999999999999/", "url has the port 99999999999999999999; a port is a number from 1 to 65535"),
        ] {
            #expect { _ = try WebhookURL(url) } throws: { ($0 as? FieldError)?.message == message || (($0 as? FieldError)?.message.hasPrefix(message) ?? false) }
        }
    }

    @Test func refusesOverlongURLs() {
        let url = "https://example.com/" + String(repeating: "a", count: 2030)
        #expect { _ = try WebhookURL(url) } throws: { ($0 as? FieldError)?.code == "too_long" && ($0 as? FieldError)?.field == "url" }
    }
}
