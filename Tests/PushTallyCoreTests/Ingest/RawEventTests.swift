import Testing

@testable import PushTallyCore

/// `RawEvent` scans the few fields a receipt carries instead of hashing each name asked for: the answers must
/// be those of a dictionary lookup at every size, on both sides of the scan's limit.
@Suite struct RawEventTests {
    @Test(arguments: 0...9) func valueOfEqualsTheDictionaryLookup(fieldCount: Int) {
        let names = RawEvent.knownFields + ["unknown", "x"]
        var fields: [String: RawValue] = [:]
        for index in 0..<fieldCount { fields[names[index * 3 % names.count]] = index.isMultiple(of: 2) ? .string("v\(index)") : .number(Double(index)) }
        let raw = RawEvent(fields: fields)
        for name in names + ["", "push_id ", "PUSH_ID"] {
            #expect(raw.value(of: name) == fields[name], "\(name) among \(fieldCount) fields")
        }
    }

    @Test func aFormKeepsEveryKnownFieldAndDropsTheRest() {
        var form = ["utm_source": "x", "": "empty", "Push_ID": "case"]
        for (index, name) in RawEvent.knownFields.enumerated() { form[name] = "value \(index)" }
        let raw = RawEvent(form: form)
        #expect(raw.fields.count == RawEvent.knownFields.count)
        for (index, name) in RawEvent.knownFields.enumerated() { #expect(raw.fields[name] == .string("value \(index)")) }
        #expect(RawEvent(form: ["push_id": "1", "campaign": "c"]).fields == ["push_id": .string("1")])
    }
}
