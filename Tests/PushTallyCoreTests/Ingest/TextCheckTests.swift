import Foundation
import Testing

@testable import PushTallyCore

/// What a name or id may hold, and that checking one costs time linear in its bytes: lengths are judged on the
/// raw bytes before normalization, and runs of combining marks past UAX #15's stream-safe bound are refused
/// before normalization would sort them.
@Suite struct TextCheckTests {
    func check(_ text: String, limit: Int = 128) -> Result<String?, FieldError> {
        Result { () throws(FieldError) -> String? in try EventValidator.checkedText(text, field: "push_id", limit: limit) }
    }

    func refusal(_ text: String, limit: Int = 128) -> FieldError? {
        if case .failure(let error) = check(text, limit: limit) { return error }
        return nil
    }

    @Test func aLongRunOfCombiningMarksIsRefusedBeforeNormalization() {
        // The probe's shape: one letter and tens of thousands of marks of two classes, which NFC must reorder.
        let marks = "a" + String(repeating: "\u{0301}\u{0316}", count: 20_000)
        #expect(refusal(marks)?.code == "too_long", "past three times the limit in raw bytes: refused by length alone")
        let underTheBytes = "a" + String(repeating: "\u{0301}\u{0316}", count: 16)
        let error = refusal(underTheBytes)
        #expect(error?.code == "invalid_characters")
        #expect(error?.message.contains("more than 30 combining marks in a row") == true, "\(String(describing: error))")
        #expect(error?.field == "push_id")
    }

    @Test func realTextWithMarksIsKeptAndPutInNFC() throws {
        // Vietnamese stacks two marks on a letter; thirty in a row is the stream-safe bound, still accepted.
        #expect(try check("Tiê\u{0301}ng Viê\u{0323}t").get() == "Tiếng Việt")
        let thirty = "a" + String(repeating: "\u{0301}", count: 30)
        #expect(try check(thirty).get() == thirty.precomposedStringWithCanonicalMapping)
    }

    @Test func theLengthIsTheNFCLengthWhenTheRawBytesAreWithinThreeTimesIt() throws {
        // Decomposed é is three bytes, composed two: 60 of them are 180 raw bytes but 120 stored, within 128.
        let decomposed = String(repeating: "e\u{0301}", count: 60)
        #expect(try check(decomposed).get()?.utf8.count == 120)
        #expect(refusal(String(repeating: "é", count: 65))?.code == "too_long")
    }

    @Test func invisibleFormatCharactersAndLineSeparatorsAreRefused() {
        for (text, what) in [
            ("spring\u{200B}", "U+200B"), ("spring\u{FEFF}", "U+FEFF"), ("spr\u{00AD}ing", "U+AD"), ("spring\u{2060}", "U+2060"),
            ("\u{202E}gnirps", "U+202E"), ("spring\u{2066}", "U+2066"), ("spring\u{200E}", "U+200E"),
            ("line\u{2028}break", "separators"), ("para\u{2029}graph", "separators"), ("next\u{0085}line", "control"),
            ("c1\u{009B}", "control"), ("tab\there", "control"),
            ("spring\u{200D}", "zero-width joiner"), ("\u{200D}spring", "zero-width joiner"), ("a\u{200D}b", "zero-width joiner"),
        ] {
            let error = refusal(text)
            #expect(error?.code == "invalid_characters", "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(error?.message.contains(what) == true, "\(String(describing: error?.message))")
        }
    }

    @Test func everyASCIIByteIsJudgedAsTheFullCheckWouldJudgeIt() throws {
        for byte in UInt8(0)...0x7F {
            let text = "id" + String(UnicodeScalar(byte)) + "7"
            if (0x20..<0x7F).contains(byte) {
                #expect(try check(text).get() == text, "byte \(byte)")
            } else {
                #expect(refusal(text)?.code == "invalid_characters", "byte \(byte)")
            }
        }
        #expect(try check(String(repeating: "a", count: 128)).get()?.utf8.count == 128, "at the limit")
        #expect(refusal(String(repeating: "a", count: 129))?.code == "too_long", "one byte past it")
    }

    @Test func aJoinerInsideAnEmojiSequenceOrAWordIsKept() throws {
        let family = "sale 👨\u{200D}👩\u{200D}👧"
        #expect(try check(family).get() == family)
        let chillu = "അവന\u{0D4D}\u{200D}"  // a Malayalam word ending in a chillu: a virama, then the joiner
        #expect(try check(chillu).get() == chillu)
        #expect(refusal("👍\u{200D}")?.code == "invalid_characters", "a joiner after an emoji that joins nothing")
        let devanagari = "क\u{094D}\u{200D}ष"  // a half form inside a word
        #expect(try check(devanagari).get() != nil)
    }

    @Test func reportFiltersAreStreamSafeToo() {
        // Report filters are normalized, not refused: the same run gets a grapheme joiner after every thirty marks.
        let marks = "a" + String(repeating: "\u{0301}", count: 65)
        let filter = CanonicalText.nfc(marks)
        #expect(CanonicalText.longestNonStarterRun(filter) <= CanonicalText.maxNonStarters)
        #expect(filter.unicodeScalars.filter { $0 == "\u{034F}" }.count == 2)
    }
}
