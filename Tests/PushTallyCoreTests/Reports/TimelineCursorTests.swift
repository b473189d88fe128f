import PushTallyCore
import Testing

/// The timeline's `after` cursor: every cursor reads back as itself; anything else is refused naming `after`.
@Suite struct TimelineCursorTests {
    @Test(arguments: [
        TimelineCursor.start, TimelineCursor(eventTimeMillis: 0, row: 0),
        TimelineCursor(eventTimeMillis: 1_763_629_200_123, row: 42), TimelineCursor(eventTimeMillis: .max, row: -1),
    ])
    func cursorsReadBackAsThemselves(_ cursor: TimelineCursor) throws {
        #expect(cursor.text.utf8.count == 35)
        #expect(cursor.text.hasPrefix("t1."))
        #expect(try TimelineCursor(text: cursor.text) == cursor)
    }

    @Test(arguments: [
        "", "t1.", "t2.0000000000000000000000000000002a", "t1.0000000000000000000000000000002A",
        "t1.000000000000000000000000000002a", "t1.0000000000000000000000000000002ax", "t1.000000000000000g000000000000002a",
        "t1.+000000000000000000000000000002a", "0000000000000000000000000000002a", "t1.0000000000000000000000000000002a\n",
    ])
    func anythingElseIsRefusedNamingAfter(_ text: String) {
        #expect(throws: FieldError.self) { try TimelineCursor(text: text) }
        do {
            _ = try TimelineCursor(text: text)
        } catch {
            #expect(error.field == "after")
            #expect(error.code == "bad_value")
        }
    }
}
