import Foundation
import Testing

@testable import PushTallyCore

/// What `POST /v1/sessions` and `POST /v1/conversions` accept and refuse, and how money is counted and shown.
@Suite struct OutcomeValidationTests {
    private func validate(_ form: [String: String], _ kind: EventKind) throws(FieldError) -> IncomingEvent {
        try EventValidator.validate(RawEvent(form: form), kind: kind)
    }

    private func refusal(_ form: [String: String], _ kind: EventKind) -> FieldError? {
        do {
            _ = try validate(form, kind)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSessionNeedsDeviceAndSessionIDs() throws {
        let session = try validate(["device_id": "d", "session_id": "s", "app": "com.example", "app_version": "4.2"], .session)
        #expect(session == .session(deviceID: "d", sessionID: "s", app: "com.example", appVersion: "4.2"))
        #expect(refusal(["session_id": "s"], .session)?.field == "device_id")
        #expect(refusal(["device_id": "d"], .session)?.field == "session_id")
        #expect(refusal(["device_id": "d", "session_id": String(repeating: "x", count: 129)], .session)?.code == "too_long")
        #expect(refusal(["device_id": "d", "session_id": "s", "ts": "yesterday"], .session)?.field == "ts")
    }

    @Test func aConversionNeedsAnEventAndACurrencyWithItsValue() throws {
        let purchase = try validate(
            ["device_id": "d", "event": "purchase", "value": "9.99", "currency": "eur", "conversion_id": "c1"], .conversion)
        #expect(purchase == .conversion(deviceID: "d", name: "purchase", valueMicros: 9_990_000, currency: "EUR", conversionID: "c1"))
        #expect(try validate(["device_id": "d", "event": "signup"], .conversion).valueMicros == nil)
        #expect(refusal(["device_id": "d"], .conversion)?.field == "event")
        #expect(refusal(["event": "purchase"], .conversion)?.field == "device_id")
        #expect(refusal(["device_id": "d", "event": "e", "value": "1"], .conversion)?.field == "currency")
        #expect(refusal(["device_id": "d", "event": "e", "currency": "USD"], .conversion)?.field == "value")
        #expect(refusal(["device_id": "d", "event": "e", "value": "1", "currency": "XYZ"], .conversion)?.code == "invalid_currency")
        for bad in ["-1", "1e3", "abc", "1.", ".5", "1000000001", ""] where !bad.isEmpty {
            #expect(refusal(["device_id": "d", "event": "e", "value": bad, "currency": "USD"], .conversion)?.field == "value", "\(bad)")
        }
    }

    @Test func jsonValuesAreNumbersOrDecimalStrings() throws {
        let number = RawEvent(fields: ["device_id": .string("d"), "event": .string("e"), "value": .number(0.1), "currency": .string("USD")])
        #expect(try EventValidator.validate(number, kind: .conversion).valueMicros == 100_000)
        let flag = RawEvent(fields: ["device_id": .string("d"), "event": .string("e"), "value": .unsupported("boolean"), "currency": .string("USD")])
        #expect(throws: FieldError.self) { try EventValidator.validate(flag, kind: .conversion) }
        #expect(MoneyAmount.parse("12.3456789") == 12_345_679)
        #expect(MoneyAmount.parse("1000000000") == 1_000_000_000_000_000)
        #expect(MoneyAmount.parse("1000000000.000000") == 1_000_000_000_000_000)
        // Past the cap as written, even where rounding to millionths would bring it back under, as for a number.
        #expect(MoneyAmount.parse("1000000000.0000001") == nil)
        let past = RawEvent(fields: ["device_id": .string("d"), "event": .string("e"), "value": .number(1_000_000_000.0000002), "currency": .string("USD")])
        #expect(throws: FieldError.self) { try EventValidator.validate(past, kind: .conversion) }
    }

    @Test func moneyTextIsTheShortestExactDecimal() {
        #expect(MoneyAmount.text(micros: 9_990_000) == "9.99")
        #expect(MoneyAmount.text(micros: 5_000_000) == "5")
        #expect(MoneyAmount.text(micros: 300_000) == "0.3")
        #expect(MoneyAmount.text(micros: 1) == "0.000001")
        #expect(MoneyAmount.text(micros: -2_500_000) == "-2.5")
    }

    @Test func sessionAndConversionRetriesAreKeyedPerDeviceAndEndWithTheDeviceSuffix() {
        let suffix = DedupeKeys.deviceSuffix(keyedDeviceID: "dev")
        let session = DedupeKeys.of(.session(deviceID: "dev", sessionID: "s1"))
        let conversion = DedupeKeys.of(.conversion(deviceID: "dev", name: "e", conversionID: "s1"))
        #expect(session.count == 1 && conversion.count == 1 && session != conversion)
        #expect(session[0].hasSuffix(suffix) && conversion[0].hasSuffix(suffix))
        #expect(DedupeKeys.of(.session(deviceID: "other", sessionID: "s1")) != session)
        // Without a conversion_id every conversion counts.
        #expect(DedupeKeys.of(.conversion(deviceID: "dev", name: "e")).isEmpty)
    }

    @Test func conversionValuesRenderAsDecimalsInJSONAndAColumnPerCurrencyInCSV() throws {
        var funnel = Funnel()
        funnel.outcomes.add(measure: .directConversion, currency: "USD", count: 2, value: 300_000)
        funnel.outcomes.add(measure: .influencedConversion, currency: "JPY", count: 1, value: 1_200_000_000)
        funnel.outcomes.add(measure: .influencedOpen, currency: "", count: 3, value: 0)
        let push = PushFigures(pushID: "p", campaign: "c", title: nil, sentAtMillis: nil, app: nil, environment: nil, firstEventMillis: nil, funnel: funnel)
        let table = PushReport.table([push], maturity: Maturity(nowMillis: 0))
        let json = String(decoding: JSONRenderer.render(table), as: UTF8.self)
        #expect(json.contains(#""conversion_value":{"JPY":1200,"USD":0.3}"#))
        #expect(json.contains(#""conversions":3"#) && json.contains(#""influenced_opens":3"#))
        let csv = CSVRenderer.render(table).split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let usd = try #require(csv[0].firstIndex(of: "conversion_value:USD"))
        let jpy = try #require(csv[0].firstIndex(of: "conversion_value:JPY"))
        #expect(csv[1][usd] == "0.3" && csv[1][jpy] == "1200")
        // A client reads the same amounts back from the JSON.
        let decoded = try ReportTable(json: JSONRenderer.render(table), shape: try ReportRequest(.pushes(orphan: nil)).emptyTable())
        #expect(decoded.values(of: "conversion_value").first == .money(["USD": 300_000, "JPY": 1_200_000_000], csvPrefix: "conversion_value:"))
    }
}
