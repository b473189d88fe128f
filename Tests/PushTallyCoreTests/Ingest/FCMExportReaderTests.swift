import Foundation
import PushTallyCore
import Testing

/// Rows of FCM's BigQuery export as `bq extract` writes them, and the refusal of a bad one by its line.
@Suite struct FCMExportReaderTests {
    static let delivered = """
        {"event_timestamp":"2026-11-20 08:00:01.123456 UTC","project_number":"123456789012","message_id":"0:17%31bd","instance_id":"fX1","message_type":"DATA_MESSAGE","sdk_platform":"ANDROID","app_name":"com.example.news","collapse_key":"","priority":"10","ttl":"2419200","topic":null,"bulk_id":"0","event":"MESSAGE_DELIVERED","analytics_label":"2018001"}
        """

    @Test func aRowAsBigQueryWritesItIsRead() throws {
        let rows = try FCMExportReader.rows(Data((Self.delivered + "\n\n").utf8))
        #expect(rows == [FCMExportRow(
            messageID: "0:17%31bd", instanceID: "fX1", event: .delivered, pushID: "2018001", platform: "android",
            eventMillis: 1_795_161_601_123)])
    }

    @Test func aRowWithoutLabelInstanceOrPlatformIsKept() throws {
        let rows = try FCMExportReader.rows(Data(#"{"message_id":"m","event":"MISSING_REGISTRATIONS","sdk_platform":"UNKNOWN"}"#.utf8))
        #expect(rows == [FCMExportRow(messageID: "m", instanceID: nil, event: .missingRegistrations, pushID: nil, platform: "unknown")])
        #expect(rows[0].event.isError)
    }

    @Test(arguments: [
        (#"{"message_id":"m","event":"MESSAGE_SENT"}"#, "event", "bad_value"),
        (#"{"event":"MESSAGE_DELIVERED"}"#, "message_id", "missing_field"),
        (#"{"message_id":"m","event":"MESSAGE_DELIVERED","analytics_label":["a"]}"#, "analytics_label", "bad_type"),
        (#"{"message_id":"m","event":"MESSAGE_DELIVERED","event_timestamp":"yesterday"}"#, "event_timestamp", "bad_timestamp"),
        (#"{"message_id":"m","event":"MESSAGE_DELIVE"#, nil, "malformed_json"),
        (#"["message_id"]"#, nil, "malformed_json"),
    ])
    func aBadRowIsRefusedWithItsLineAndField(row: String, field: String?, code: String) throws {
        let text = Self.delivered + "\n\n" + row + "\n" + Self.delivered
        #expect {
            _ = try FCMExportReader.rows(Data(text.utf8))
        } throws: { error in
            guard let error = error as? FCMRowError else { return false }
            return error.line == 3 && error.error.field == field && error.error.code == code && error.description.hasPrefix("line 3: ")
        }
    }

    @Test func figuresCountEventsByKindAndErrorsByName() {
        var figures = FCMFigures()
        figures.add(event: "MESSAGE_DELIVERED", count: 4)
        figures.add(event: "MESSAGE_ACCEPTED", count: 5)
        figures.add(event: "INVALID_REGISTRATION", count: 1)
        figures.add(event: "QUOTA_EXCEEDED", count: 2)
        #expect(figures.delivered == 4 && figures.accepted == 5 && figures.failed == 3)
        let columns = figures.columns(displayedUnique: 3)
        #expect(columns.first { $0.0 == "displayed_of_delivered" }?.1 == .rate(0.75))
        #expect(FCMFigures().columns(displayedUnique: 3).first { $0.0 == "displayed_of_delivered" }?.1 == .rate(nil))
    }
}
