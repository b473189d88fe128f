import Foundation
import PushTallyCore
import Testing

/// A form receipt is read into its raw event in one pass (`FormBody.rawEvent`), without the dictionary of every
/// pair: it must read exactly what the two steps read, and refuse exactly what they refuse.
@Suite struct FormRawEventTests {
    static let bodies = [
        "push_id=2018001",
        "push_id=1&push_id=2",
        "push_id=a+b%20c&device_id=d1&receipt_id=r&ts=1700000000000",
        "push_id=1&utm_source=x&utm_source=%ZZ",
        "push_id=1&unknown=%ZZ",
        "push_id=%ZZ",
        "push_id&device_id=",
        "&&push_id=1&&",
        "=1&push_id=2",
        "push_id=%E6%96%B0&platform=iOS&app_version=2.1&os_version=17.1&extension_ms=120&media=image",
        "push_id=%FF",
        "%FF=1&push_id=2",
        "",
    ]

    @Test(arguments: bodies)
    func oneReadIsTheTwoStepsRead(_ body: String) {
        let bytes = Array(body.utf8)
        let twoSteps = bytes.withUnsafeBytes { buffer in
            Result { () throws(FieldError) -> RawEvent in RawEvent(form: try FormBody.parse(buffer)) }
        }
        let oneRead = bytes.withUnsafeBytes { buffer in
            Result { () throws(FieldError) -> RawEvent in try FormBody.rawEvent(buffer) }
        }
        switch (twoSteps, oneRead) {
        case (.success(let expected), .success(let read)):
            #expect(read == expected)
        case (.failure(let expected), .failure(let read)):
            #expect(read.code == expected.code)
            #expect(read.message == expected.message)
        default:
            Issue.record("two steps gave \(twoSteps), one read gave \(oneRead)")
        }
    }
}
