import Foundation
import Testing

@testable import PushTallyCore

/// The feed's fields are declared once (``FeedSchema``): the lines' keys, the raw events' exported columns and
/// every rendered schema are held to the declaration.
@Suite struct FeedSchemaTests {
    /// An event with every field filled, as the feed writes it.
    static var everyFieldFilled: ExportedEvent {
        var event = ExportedEvent(
            seq: 41, push_id: "p", kind: "action", action: "open", received_at: 2, event_time: 1, duplicate: false,
            device_id: "d", receipt_id: "r", platform: "ios", app_version: "2.1", os_version: "18.1")
        event.app = "com.example"
        event.event = "purchase"
        event.value_micros = 1_000_000
        event.currency = "EUR"
        event.media = "attached"
        event.extension_ms = 120
        event.notification_permission = "authorized"
        event.campaign = "spring"
        event.batch_id = "b-1"
        event.targeted = 12
        event.sent = 10
        event.failed = 2
        event.failures = #"{"Unregistered":2}"#
        event.sent_at = 1
        event.message_id = "m-1"
        event.identify(source: "db")
        event.cursor = EventCursor(transaction: 0, position: 41).text
        return event
    }

    @Test func aLineHasExactlyTheDeclaredFieldsWithTheDeclaredKinds() throws {
        let line = try ExportFormat.line(Self.everyFieldFilled)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == Set(FeedSchema.fields.map(\.name)))
        for field in FeedSchema.fields {
            let value = field.value(Self.everyFieldFilled)
            #expect(!value.isNull, "\(field.name) is filled in the event")
            switch (field.kind, value) {
            case (.text, .text(let text)): #expect(object[field.name] as? String == text)
            case (.integer, .integer(let integer)): #expect((object[field.name] as? NSNumber)?.int64Value == integer)
            case (.boolean, .boolean(let flag)): #expect(object[field.name] as? Bool == flag)
            default: Issue.record("\(field.name): a \(field.kind) field gives \(value)")
            }
        }
        // Only optional fields may be absent from a line.
        let bare = ExportedEvent(
            seq: 1, push_id: "p", kind: "display", action: nil, received_at: 1, event_time: 1, duplicate: false, device_id: nil,
            receipt_id: nil, platform: nil, app_version: nil, os_version: nil)
        var identified = bare
        identified.identify(source: "db")
        identified.cursor = EventCursor.start.text
        for field in FeedSchema.fields where field.value(identified).isNull {
            #expect(!field.required, "\(field.name) is required but an event can lack it")
        }
    }

    /// A send record's refusals read as the JSON object a warehouse parses, whatever the reasons hold.
    @Test func failuresAreAJSONObjectInReasonOrder() throws {
        let counts = SendCounts(failed: ["Unregistered": 2, #"Bad"Token\"#: 1, "tab\tafter": 3, "none": 0])
        let text = SendRecordText.failures(counts)
        #expect(text == #"{"Bad\"Token\\":1,"Unregistered":2,"tab\tafter":3}"#)
        let parsed = try JSONDecoder().decode([String: Int64].self, from: Data(text.utf8))
        #expect(parsed == counts.failed.filter { $0.value > 0 })
        #expect(SendRecordText.failures(SendCounts()) == "{}")
    }

    /// A raw-event column an export carries is a field of the feed, so a column added to the declarations
    /// reaches warehouses (or this test names it).
    @Test func everyExportedColumnIsAField() {
        let names = Set(FeedSchema.fields.map(\.name))
        let keys: [EventColumn: String] = [.kind: "kind", .name: "event", .valueMicros: "value_micros", .eventID: "event_id"]
        for column in EventColumns.exported {
            #expect(names.contains(keys[column] ?? column.name), "\(column.name) is not in FeedSchema.fields")
        }
    }

    @Test(arguments: FeedSchema.Dialect.allCases) func everySchemaNamesEveryField(dialect: FeedSchema.Dialect) {
        let text = FeedSchema.render(dialect)
        for field in FeedSchema.fields {
            let quoted = text.components(separatedBy: "\"\(field.name)\"").count - 1
            let bare = text.components(separatedBy: "    \(field.name) ").count - 1
            #expect(quoted + bare >= 1, "\(dialect) lacks \(field.name)")
        }
    }

    @Test func cursorsReadBackAndRefuseWhatIsNotOne() throws {
        let cursor = EventCursor(transaction: 0x3e9, position: 41)
        #expect(cursor.text == "e1.00000000000003e90000000000000029")
        #expect(try EventCursor(text: cursor.text) == cursor)
        #expect(EventCursor.start < cursor && EventCursor(transaction: 0x3e9, position: 40) < cursor)
        for bad in ["", "e1.", "t1.00000000000003e90000000000000029", "e1.00000000000003E90000000000000029",
                    "e1.00000000000003e9000000000000002"] {
            #expect(throws: FieldError.self, "\(bad)") { try EventCursor(text: bad) }
        }
        // Every string of the shape is a cursor (the API document's pattern says so): the bits read back whole.
        let high = "e1.fdcaf014f0231f4d809c2b85b4cd81a8"
        #expect(try EventCursor(text: high).text == high)
    }
}
