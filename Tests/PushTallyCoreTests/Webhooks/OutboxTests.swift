import Foundation
import Testing

@testable import PushTallyCore

/// Parses JSON the way a receiver would, so the tests judge the text by a parser that did not write it.
func parsedObject(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

@Suite struct WebhookOutboxTests {
    let receiptsOnly = Outbox([WebhookSubscription(endpointID: "wh_a", events: [.receiptDisplayed])])

    func display(_ n: Int, device: String? = nil) -> StoredEvent {
        StoredEvent(
            pushID: "p\(n % 3)", kind: .display, action: "", receivedAt: 1_700_000_000_000, eventTime: 1_700_000_000_000 - Int64(n),
            duplicate: nil, deviceID: device, receiptID: "r\(n)", platform: "ios", appVersion: "2.1", osVersion: "17.4")
    }

    func events(in row: OutboxRow) throws -> [[String: Any]] {
        try #require(try parsedObject(#"{"events":[\#(row.items)]}"#)["events"] as? [[String: Any]])
    }

    @Test func chunksRowsAtExactlyFiveHundred() throws {
        let rows = receiptsOnly.rows(forEvents: (0..<1201).map { display($0) }, labels: { _ in nil })
        #expect(rows.map(\.count) == [500, 500, 201])
        #expect(rows.allSatisfy { $0.type == .receiptDisplayed })
        #expect(try rows.map { try events(in: $0).count } == [500, 500, 201])
        // In order, none lost: the callers, not the outbox, leave duplicates out.
        let ids = try rows.flatMap { try events(in: $0).map { $0["receipt_id"] as? String } }
        #expect(ids == (0..<1201).map { "r\($0)" })
        #expect(receiptsOnly.rows(forEvents: (0..<500).map { display($0) }, labels: { _ in nil }).map(\.count) == [500])
    }

    @Test func packsRowsIntoMessagesOfAtMostFiveHundred() throws {
        let rows = receiptsOnly.rows(forEvents: (0..<1201).map { display($0) }, labels: { _ in nil })
        let packed = receiptsOnly.pack(rows, at: 1_700_000_000_000)
        #expect(packed.count == 3)
        for (message, expected) in zip(packed, [500, 500, 201]) {
            let body = try parsedObject(message.message.body)
            #expect(body["type"] as? String == "receipt.displayed")
            #expect(body["timestamp"] as? String == "2023-11-14T22:13:20Z")
            let data = try #require(body["data"] as? [String: Any])
            #expect((data["events"] as? [Any])?.count == expected)
            #expect(message.endpointIDs == ["wh_a"])
        }
        // Small rows fill a message up to the limit, never past it.
        let small = [300, 150, 50, 1].map { OutboxRow(type: .receiptDisplayed, count: $0, items: Array(repeating: "{}", count: $0).joined(separator: ",")) }
        let counts = try receiptsOnly.pack(small, at: 0).map { message in
            try #require((try parsedObject(message.message.body)["data"] as? [String: Any])?["events"] as? [Any]).count
        }
        #expect(counts == [500, 1])
    }

    @Test func unsubscribedTypesProduceNothing() {
        let taps = (0..<3).map { n in
            StoredEvent(
                pushID: "p", kind: .action, action: "open", receivedAt: 0, eventTime: 0, duplicate: nil, receiptID: "t\(n)",
                appVersion: nil, osVersion: nil)
        }
        #expect(receiptsOnly.rows(forEvents: taps, labels: { _ in nil }).isEmpty)
        #expect(receiptsOnly.pack([OutboxRow(type: .actionTapped, count: 1, items: "{}")], at: 0).isEmpty)
        let nobody = Outbox([])
        #expect(!nobody.wantsEvents)
        #expect(nobody.rows(forEvents: [display(1)], labels: { _ in nil }).isEmpty)
        let registration = PushRegistration(pushID: "p1", campaign: "c", sentAtMillis: 0, counts: SendCounts(targeted: 1, sent: 1))
        #expect(nobody.messages(forRegistration: registration, outcome: .created, at: 0).isEmpty)
        #expect(receiptsOnly.messages(forAlert: Alert.new(AlertRule(name: "a", kind: .receiptsStopped, windowMillis: 3_600_000, threshold: 0.2, minSent: 0), at: 0), at: 0).isEmpty)
    }

    @Test func eventsCarryLabelsAndTheKeyedDeviceIDAsGiven() throws {
        let outbox = Outbox([
            WebhookSubscription(endpointID: "wh_a", events: [.receiptDisplayed, .actionTapped]),
            WebhookSubscription(endpointID: "wh_b", events: [.actionTapped]),
        ])
        let tap = StoredEvent(
            pushID: "p1", kind: .action, action: "view", receivedAt: 1_700_000_001_000, eventTime: 1_700_000_000_500, duplicate: nil,
            deviceID: "k:5f2b9c", receiptID: "r9", platform: "ios", appVersion: "3.0", osVersion: "18.0")
        let rows = outbox.rows(forEvents: [display(0, device: "k:abc"), tap], labels: { $0 == "p1" ? PushLabels(campaign: "spring", app: "shop") : nil })
        #expect(rows.map(\.type) == [.receiptDisplayed, .actionTapped])
        let receipt = try #require(try events(in: rows[0]).first)
        #expect(receipt["device_id"] as? String == "k:abc")
        #expect(receipt["campaign"] is NSNull && receipt["app"] is NSNull)
        #expect(receipt["action"] == nil)
        let event = try #require(try events(in: rows[1]).first)
        #expect(event["device_id"] as? String == "k:5f2b9c")
        #expect(event["action"] as? String == "view")
        #expect(event["campaign"] as? String == "spring" && event["app"] as? String == "shop")
        #expect(event["ts"] as? String == "2023-11-14T22:13:20.500Z")
        #expect(event["received_at"] as? String == "2023-11-14T22:13:21Z")
        #expect(event["push_id"] as? String == "p1" && event["receipt_id"] as? String == "r9")
        #expect(event["platform"] as? String == "ios" && event["app_version"] as? String == "3.0" && event["os_version"] as? String == "18.0")
        let packed = outbox.pack(rows, at: 0)
        #expect(packed.map(\.endpointIDs) == [["wh_a"], ["wh_a", "wh_b"]])
    }

    @Test func registrationsAndAlertsBecomeMessages() throws {
        let outbox = Outbox([WebhookSubscription(endpointID: "wh_a", events: [.pushRegistered, .alertFiring])])
        let push = PushRegistration(
            pushID: "p1", campaign: "c", sentAtMillis: 1_700_000_000_000, counts: SendCounts(targeted: 10, sent: 7, failed: ["A": 2, "B": 1]))
        let queued = try #require(outbox.messages(forRegistration: push, outcome: .updated, at: 5).first)
        let data = try #require(try parsedObject(queued.message.body)["data"] as? [String: Any])
        #expect(data["push_id"] as? String == "p1" && data["outcome"] as? String == "updated")
        #expect(data["sent"] as? Int == 7 && data["failed"] as? Int == 3 && data["targeted"] as? Int == 10)
        var alert = Alert.new(AlertRule(name: "a", kind: .receiptsStopped, windowMillis: 3_600_000, threshold: 0.2, minSent: 0), at: 0)
        alert.state = .firing
        #expect(outbox.messages(forAlert: alert, at: 0).map(\.message.type) == [.alertFiring])
        alert.state = .ok
        // Nobody takes alert.resolved here.
        #expect(outbox.messages(forAlert: alert, at: 0).isEmpty)
    }
}

@Suite struct WebhookJSONTextTests {
    @Test(arguments: [
        "plain", "say \"hi\"", #"back\slash"#, "line\nbreak\r\ttab", "\u{01}\u{08}\u{0C}\u{1F}\u{7F}", "新年快乐 🎉", "",
        "\"\\\u{00}",
    ])
    func escapesSoAParserReadsTheSameText(value: String) throws {
        var json = JSONText()
        json.open()
        json.field("k\"ey", value)
        json.close()
        #expect(try parsedObject(json.text)["k\"ey"] as? String == value)
        #expect(try JSONSerialization.jsonObject(with: Data("[\(JSONText.quoted(value))]".utf8)) as? [String] == [value])
    }

    @Test func writesNumbersNullsAndNestedJSON() throws {
        var json = JSONText()
        json.open()
        json.field("int", Int64(-42) as Int64?)
        json.field("double", 0.25 as Double?)
        json.field("infinite", Double.infinity as Double?)
        json.field("none", nil as String?)
        json.field("nested", json: #"{"a":[1,2]}"#)
        json.close()
        let object = try parsedObject(json.text)
        #expect(object["int"] as? Int == -42)
        #expect(object["double"] as? Double == 0.25)
        #expect(object["infinite"] is NSNull && object["none"] is NSNull)
        #expect((object["nested"] as? [String: Any])?["a"] as? [Int] == [1, 2])
        #expect(object.count == 5)
    }
}

/// Durations as alert rules read and show them (`window`, `grace`).
@Suite struct AlertDurationTextTests {
    @Test(arguments: ["30s", "90m", "1h", "1d", "2w", "1s", "0s"])
    func roundTripsCanonicalText(text: String) throws {
        #expect(DurationText.text(millis: try #require(DurationText.millis(text))) == text)
    }

    @Test(arguments: [1_000, 59_000, 61_000, 5_400_000, 86_400_000, 90 * 86_400_000, 604_800_000 * 3, 86_400_000 + 1_000] as [Int64])
    func roundTripsWholeSeconds(millis: Int64) {
        #expect(DurationText.millis(DurationText.text(millis: millis)) == millis)
    }

    @Test func readsUnitsAndPrefersTheLargestThatDivides() {
        #expect(DurationText.millis("90m") == 5_400_000)
        #expect(DurationText.millis("2w") == 1_209_600_000)
        #expect(DurationText.text(millis: 3_600_000) == "1h")
        #expect(DurationText.text(millis: 604_800_000) == "1w")
        #expect(DurationText.text(millis: 1_500) == "1500ms")
        #expect(DurationText.millis("60m").map(DurationText.text(millis:)) == "1h")
    }

    @Test(arguments: ["", "5", "h", "-1h", "1.5h", "1x", " 1h", "1h ", "１h", "9999999999999999w"])
    func refusesWhatIsNoDuration(text: String) {
        #expect(DurationText.millis(text) == nil)
    }
}
