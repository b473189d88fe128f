import Foundation
import Testing

@testable import PushTallyCore

@Suite struct TimestampTests {
    /// The hand-written formatter says what Foundation's ISO 8601 formatter says, across zones and centuries.
    @Test func formatsISO8601LikeFoundation() {
        var generator = SystemRandomNumberGenerator()
        let zones = ["UTC", "Asia/Kathmandu", "America/Santiago", "America/St_Johns", "Pacific/Chatham", "Asia/Taipei"]
        for _ in 0..<2000 {
            // From 1970: before 1920 some zones ran on local mean time, offsets with seconds that ISO 8601 cannot say.
            let millis = Int64.random(in: 0...4_102_444_800_000, using: &generator) / 1000 * 1000
            let zone = TimeZone(identifier: zones.randomElement(using: &generator)!)!
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = zone
            #expect(Timestamp.iso8601(millis: millis, offsetSeconds: zone.secondsFromGMT(for: date)) == formatter.string(from: date))
        }
        #expect(Timestamp.iso8601(millis: 1_795_167_300_123) == "2026-11-20T09:35:00.123Z")
        #expect(Timestamp.iso8601(millis: -1) == "1969-12-31T23:59:59.999Z")
    }

    /// The oldest timestamps taken are written with ISO 8601's expanded year, as docs/openapi.yaml's `ReportTime`
    /// pattern says, never as `00-5-...` (a sign inside the padding).
    @Test func writesYearsBeforeZeroWithTheirSignFirst() {
        #expect(Timestamp.iso8601(millis: -62_167_219_200_000) == "0000-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(millis: -62_198_755_200_000) == "-0001-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(millis: -62_324_985_600_000) == "-0005-01-01T00:00:00Z")
    }

    @Test func readsUnixSecondsAndISO8601() throws {
        #expect(try Timestamp.millis(from: .number(1_795_000_000), field: "ts") == 1_795_000_000_000)
        #expect(try Timestamp.millis(from: .string("1795000000.25"), field: "ts") == 1_795_000_000_250)
        #expect(try Timestamp.millis(from: .string("2026-11-20T08:00:00Z"), field: "ts") == 1_795_161_600_000)
        #expect(try Timestamp.millis(from: .string("2026-11-20T16:00:00+08:00"), field: "ts") == 1_795_161_600_000)
        #expect(try Timestamp.millis(from: .string("2026-11-20T08:00:00.123Z"), field: "ts") == 1_795_161_600_123)
    }

    /// RFC 3339 §5.6 lets the `T` and `Z` be lower case, and a date alone is that day's start in UTC where no
    /// zone applies (receipts, sends, `since`; reports read it in their own zone).
    @Test func readsLowerCaseSeparatorsAndDatesAlone() throws {
        #expect(try Timestamp.millis(from: .string("2026-11-27t08:00:00z"), field: "ts") == 1_795_737_600_000 + 8 * 3_600_000)
        #expect(try Timestamp.millis(from: .string("2026-11-27t16:00:00+08:00"), field: "ts") == 1_795_737_600_000 + 8 * 3_600_000)
        #expect(try Timestamp.millis(from: .string("2026-11-27"), field: "ts") == 1_795_737_600_000)
        #expect(try Timestamp.millis(from: .string(" 1582-10-04 "), field: "ts") == Timestamp.daysSince1970(year: 1582, month: 10, day: 4) * 86_400_000)
        #expect(Timestamp.calendarDate("2026-11-27").map { [$0.year, $0.month, $0.day] } == [2026, 11, 27])
        #expect(Timestamp.calendarDate("2026-11-27T00:00:00Z") == nil)
        #expect(Timestamp.calendarDate("2026-02-29") == nil)
    }

    @Test func reportsReadADateAloneInTheirZone() throws {
        let taipei = try #require(TimeZone(identifier: "Asia/Taipei")), newYork = try #require(TimeZone(identifier: "America/New_York"))
        #expect(try ReportRange.millis("2026-11-27", field: "from", zone: taipei) == 1_795_737_600_000 - 8 * 3_600_000)
        // A day that begins in daylight saving time, and one whose midnight is after the change.
        #expect(try ReportRange.millis("2026-07-01", field: "from", zone: newYork) == Timestamp.daysSince1970(year: 2026, month: 7, day: 1) * 86_400_000 + 4 * 3_600_000)
        #expect(try ReportRange.millis("2026-11-02", field: "from", zone: newYork) == Timestamp.daysSince1970(year: 2026, month: 11, day: 2) * 86_400_000 + 5 * 3_600_000)
        #expect(try ReportRange.millis("2026-11-27T08:00:00Z", field: "from", zone: taipei) == 1_795_737_600_000 + 8 * 3_600_000)
        #expect { try ReportRange.millis("2026-11-31", field: "to", zone: taipei) } throws: { ($0 as? FieldError)?.field == "to" }
    }

    @Test func rejectsWhatIsNoTime() {
        for bad: RawValue in [.string("yesterday"), .string("2026-13-45"), .number(.infinity), .number(1e300), .unsupported("boolean")] {
            #expect { try Timestamp.millis(from: bad, field: "ts") } throws: { ($0 as? FieldError)?.code == "bad_timestamp" }
        }
    }

    /// Unix seconds as text are a decimal and nothing else: what `Double` would also read (hexadecimal, exponents,
    /// a bare point, `nan`, `inf`) is no clock's output, and `0x10` would have been 16 seconds.
    @Test(arguments: [
        "0x10", "0x1p3", "1e5", "1E5", "1.", ".5", "-", "-.5", "+1", "1_000", "nan", "inf", "-inf", "1.0000000001",
        "0000000000001", "1.2.3", "--1", "1-", "١٢",
    ])
    func refusesSecondsThatAreNoDecimal(text: String) {
        #expect { try Timestamp.millis(from: .string(text), field: "ts") } throws: { ($0 as? FieldError)?.code == "bad_timestamp" }
    }

    @Test(arguments: [
        ("0", 0 as Int64), ("-0", 0), ("-1", -1000), ("1.5", 1500), ("000000000001", 1000), ("1.123456789", 1123),
        ("253402300799", 253_402_300_799_000), (" 1795000000 ", 1_795_000_000_000),
    ])
    func readsDecimalSeconds(text: String, millis: Int64) throws {
        #expect(try Timestamp.millis(from: .string(text), field: "ts") == millis)
    }

    /// Reading is proleptic Gregorian, as writing is: a time before the Gregorian reform (1582-10-15) comes back as
    /// sent, not shifted by the days the Julian calendar had drifted. The numbers are Python's `datetime`'s.
    @Test(arguments: [
        ("0000-01-01T00:00:00Z", -62_167_219_200_000 as Int64), ("0001-01-01T00:00:00Z", -62_135_596_800_000),
        ("1500-01-01T00:00:00Z", -14_831_769_600_000), ("1582-10-04T00:00:00Z", -12_220_243_200_000),
        ("1582-10-15T00:00:00Z", -12_219_292_800_000), ("1900-02-28T00:00:00Z", -2_203_977_600_000),
        ("2000-02-29T00:00:00Z", 951_782_400_000), ("2024-12-31T23:59:59.999Z", 1_735_689_599_999),
        ("1969-12-31T23:59:59.999Z", -1), ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ])
    func readsWhatItWritesBeforeAndAfterTheGregorianReform(text: String, millis: Int64) throws {
        #expect(try Timestamp.millis(from: .string(text), field: "ts") == millis)
        #expect(Timestamp.iso8601(millis: millis) == text)
    }

    @Test func readsOffsetsToTheSameInstant() throws {
        for (text, offset, utc) in [
            ("1500-01-01T05:30:00+05:30", 19_800, "1500-01-01T00:00:00Z"), ("1582-10-14T19:00:00-05:00", -18_000, "1582-10-15T00:00:00Z"),
            ("0001-01-01T00:00:00+01:00", 3600, "0000-12-31T23:00:00Z"), ("1900-02-28T23:00:00-01:00", -3600, "1900-03-01T00:00:00Z"),
            ("2000-03-01T05:45:00+05:45", 20_700, "2000-03-01T00:00:00Z"), ("2024-12-31T23:59:59.999-00:01", -60, "2025-01-01T00:00:59.999Z"),
        ] {
            let millis = try Timestamp.millis(from: .string(text), field: "ts")
            #expect(Timestamp.iso8601(millis: millis) == utc, "\(text)")
            #expect(Timestamp.iso8601(millis: millis, offsetSeconds: offset) == text)
        }
        #expect(try Timestamp.millis(from: .string("1582-10-04T23:59:59.5+0000"), field: "ts") == -12_220_156_800_000 - 500)
    }

    /// Whatever is written, at any offset, between the years 0 and 9999, reads back to the same millisecond.
    @Test func everyWrittenTimeReadsBack() throws {
        var generator = SystemRandomNumberGenerator()
        let day: Int64 = 86_400_000
        let offsets = [0, 3600, -3600, 20_700, -34_200, 50_400, -43_200, 64_800, -64_800]
        for index in 0..<2000 {
            let random = Int64.random(in: (-62_167_219_200_000 + day)...(253_402_300_799_999 - day), using: &generator)
            let millis = index % 2 == 0 ? random : random / 1000 * 1000
            let text = Timestamp.iso8601(millis: millis, offsetSeconds: offsets.randomElement(using: &generator)!)
            #expect(try Timestamp.millis(from: .string(text), field: "ts") == millis, "\(text)")
        }
    }

    /// From 1583 on, where Foundation's calendar is Gregorian too, it and this parser agree both ways: on what
    /// Foundation's ISO8601DateFormatter writes, and on what `iso8601(millis:)` writes.
    @Test func agreesWithFoundationFrom1583() throws {
        var generator = SystemRandomNumberGenerator()
        let offsets = [0, 3600, -3600, 20_700, -34_200, 45_900, -43_200]
        for _ in 0..<2000 {
            let millis = Int64.random(in: -12_212_553_600_000...253_402_300_799_999, using: &generator)
            let offset = offsets.randomElement(using: &generator)!
            let whole = ISO8601DateFormatter()
            whole.timeZone = TimeZone(secondsFromGMT: offset)
            let written = whole.string(from: Date(timeIntervalSince1970: Double(millis / 1000)))
            #expect(try Timestamp.millis(from: .string(written), field: "ts") == millis / 1000 * 1000, "\(written)")

            let ours = Timestamp.iso8601(millis: millis, offsetSeconds: offset)
            let reader = ISO8601DateFormatter()
            if ours.contains(".") { reader.formatOptions = [.withInternetDateTime, .withFractionalSeconds] }
            let read = try #require(reader.date(from: ours), "\(ours)")
            #expect(Int64((read.timeIntervalSince1970 * 1000).rounded()) == millis, "\(ours)")
            #expect(try Timestamp.millis(from: .string(ours), field: "ts") == millis, "\(ours)")
        }
    }

    /// The spellings Foundation's `Date.ISO8601FormatStyle` took before are taken still, to the same instant.
    @Test(arguments: [
        "2026-11-20T08:00:00Z", "2026-11-20T08:00:00z", "2026-11-20T08:00:00.1Z", "2026-11-20T08:00:00.123456789Z",
        "2026-11-20T08:00:00.9999Z", "2026-11-20T16:00:00+08:00", "2026-11-20T16:00:00+0800", "2026-11-20T16:00:00+08",
        "2026-11-20T16:00:00+8", "2026-11-20T16:00:00+08:00:30", "2026-11-20T16:00:00+080030", "2026-11-20T16:00:00-00:00",
        "2026-11-20T08:00:00+0:5", "2026-11-20T08:00:00+18:00", "2026-11-20T08:00:00-18:00", "2026-11-20T16:00:00GMT",
        "2026-11-20T16:00:00UTC", "2026-11-20T16:00:00gmt+08:00", "2026-11-20T16:00:00UTC-0130", "2026-11-20T16:00:00GMTx",
        "2026-11-20T08:00:00UTC8", "2026-11-20T08:00:00Zgarbage", "2026-11-20T08:00:00+08:00[Asia/Shanghai]",
        "2026-11-20T08:00:00.5Zjunk", "2026-1-2T3:4:5Z", "2026-011-020T008:00:00Z", "2026-0000000011-20T0000000008:00:00Z",
        "2024-02-29T00:00:00Z", "2026-11-20T24:00:00Z", "2026-11-20T23:59:60Z", "1583-01-01T00:00:00Z", "1969-12-31T23:59:59.9999Z",
    ])
    func takesWhatFoundationTook(text: String) throws {
        let foundation = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
        #expect(try Timestamp.millis(from: .string(text), field: "ts") == Int64((foundation.timeIntervalSince1970 * 1000).rounded(.down)))
    }

    /// What Foundation refused is refused still, and so are the impossible dates and times it rolled over into the
    /// next month, day or hour (February 30th, 25 o'clock), and times past the year 9999 that unix seconds refuse.
    @Test(arguments: [
        "2026-11-20T08:00:00", "2026-11-20T08:00Z", "2026-11-20 08:00:00Z", "2026-11-20T", "2026-11-20Z", "2026-02-30",
        "2026-11", "10000-01-01",
        "20261120T080000Z", "2026-11-20T08:00:00.Z", "2026-11-20T08:00:00,5Z", "2026-11-20T08:00:00.1234567891Z",
        "2026-11-20T08:00:00 Z", "2026-11-20T08:00:00+", "2026-11-20T08:00:00+08:", "2026-11-20T08:00:00GMT+",
        "2026-11-20T08:00:00+19:00", "2026-11-20T08:00:00-24:00", "2026-11-20T08:00:00+99", "-0001-01-01T00:00:00Z",
        "+2026-11-20T08:00:00Z", "2026/11/20T08:00:00Z", "2026-11-20TT08:00:00Z", "٢٠٢٦-11-20T08:00:00Z",
        "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-32T00:00:00Z",
        "2023-02-29T00:00:00Z", "2023-02-30T00:00:00Z", "1900-02-29T00:00:00Z", "2023-04-31T00:00:00Z",
        "2026-11-20T25:00:00Z", "2026-11-20T24:00:01Z", "2026-11-20T24:00:00.001Z", "2026-11-20T23:60:00Z",
        "2026-11-20T23:59:61Z", "2026-11-20T08:00:00+08:60", "2026-11-20T08:00:00+00:00:60", "10000-01-01T00:00:00Z",
        "99999-01-01T00:00:00Z", "9999999999-12-31T23:59:59Z",
    ])
    func refusesWhatIsNoISO8601Time(text: String) {
        #expect { try Timestamp.millis(from: .string(text), field: "ts") } throws: { ($0 as? FieldError)?.code == "bad_timestamp" }
    }

    @Test func clampsDeviceClocksToTheLastSevenDays() {
        let received: Int64 = 1_795_000_000_000
        #expect(EventTime.clamp(deviceTimeMillis: nil, receivedAtMillis: received) == received)
        #expect(EventTime.clamp(deviceTimeMillis: received + 3_600_000, receivedAtMillis: received) == received)
        #expect(EventTime.clamp(deviceTimeMillis: received - 3_600_000, receivedAtMillis: received) == received - 3_600_000)
        #expect(EventTime.clamp(deviceTimeMillis: 0, receivedAtMillis: received) == received - EventTime.maximumDeviceLagMillis)
    }

    @Test func bucketsAreFifteenMinutes() {
        #expect(EventTime.bucket(ofMillis: 0) == 0)
        #expect(EventTime.bucket(ofMillis: 899_999) == 0)
        #expect(EventTime.bucket(ofMillis: 900_000) == 1)
        #expect(EventTime.bucket(ofMillis: -1) == -1)
    }
}
