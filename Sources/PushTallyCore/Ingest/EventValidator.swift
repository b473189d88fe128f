/// Turns what a client sent into an ``IncomingEvent``, or a ``FieldError`` naming the first bad field.
public enum EventValidator {
    /// Byte limits per text field, as their columns declare them (``EventColumn/clientField``). `push_id` is the
    /// contract's 128; the others are generous for what they hold.
    public static let limits: [String: Int] = Dictionary(uniqueKeysWithValues: ClientField.all.map { ($0.name, $0) })
        .compactMapValues(\.limit)

    /// Validates one event of `kind`; actions must carry `action`, receipts ignore it.
    public static func validate(_ raw: RawEvent, kind: EventKind) throws(FieldError) -> IncomingEvent {
        if raw.notAnObject {
            throw FieldError("malformed_json", "each event must be a JSON object")
        }
        if !kind.namesPush { return try OutcomeValidator.validate(raw, kind: kind) }
        guard let pushID = try text(raw, "push_id") else { throw .missing("push_id") }
        var action = ""
        if kind == .action {
            guard let identifier = try text(raw, "action") else { throw .missing("action") }
            action = StandardAction.normalise(identifier)
        }
        var event = IncomingEvent(
            pushID: pushID,
            kind: kind,
            action: action,
            deviceID: try text(raw, "device_id"),
            receiptID: try text(raw, "receipt_id"),
            deviceTimeMillis: try raw.value(of: "ts").map { value throws(FieldError) in
                try Timestamp.millis(from: value, field: "ts")
            },
            platform: try text(raw, "platform").map(PlatformName.folded),
            appVersion: try text(raw, "app_version"),
            osVersion: try text(raw, "os_version")
        )
        if kind == .display {
            event.media = try enumerated(raw, .media, as: ReceiptMedia.self)
            event.extensionMillis = try wholeNumber(raw, .extensionMillis)
        }
        return event
    }

    /// A text field: absent or empty is `nil`; integers are accepted for ids apps keep as numbers.
    static func text(_ raw: RawEvent, _ field: String, limit: Int? = nil) throws(FieldError) -> String? {
        guard let value = raw.value(of: field) else { return nil }
        let string: String
        switch value {
        case .string(let s):
            string = s
        case .number(let n):
            string = try integerID(n, field: field)
        case .unsupported(let type):
            throw FieldError("bad_type", "\(field) must be a string, not \(type)", field: field)
        }
        return try checkedText(string, field: field, limit: limit ?? limits[field] ?? 128)
    }

    /// The text of an id sent as a JSON number. A JSON number is read as a 64-bit float, which holds every integer
    /// only up to 2^53: past that, `9007199254740993` arrives as `9007199254740992`, another id, so such ids are
    /// refused with what to send instead, never stored as a neighbour's.
    static func integerID(_ n: Double, field: String) throws(FieldError) -> String {
        guard n.isFinite, n.rounded() == n else {
            throw FieldError("bad_type", "\(field) must be a string or an integer, not a number with a fraction", field: field)
        }
        guard abs(n) < 9_007_199_254_740_992 else {
            throw FieldError(
                "bad_type",
                "\(field) is a number past 2^53 (9007199254740992), which JSON numbers do not carry exactly; send it as a string (\"\(field)\": \"12345678901234567890\")",
                field: field)
        }
        return String(Int64(n))
    }

    /// Rejects over-long values, control characters (NUL included), line separators and invisible format
    /// characters (``TextCharacters``); empty becomes `nil`. What it returns is in NFC (``CanonicalText``), the
    /// one spelling every name is stored and compared in.
    ///
    /// Every check before normalization is linear in the raw bytes: a text past the limit in any spelling is
    /// refused by its length alone, and one whose combining marks run past UAX #15's stream-safe bound is
    /// refused before normalization would sort them.
    public static func checkedText(_ text: String, field: String, limit: Int) throws(FieldError) -> String? {
        if text.isEmpty { return nil }
        // Printable ASCII, what nearly every id and name is, is in NFC with no mark or character refused below.
        if text.utf8.count <= limit, TextCharacters.isPrintableASCII(text) { return text }
        if text.utf8.count > limit * CanonicalText.maxShrinkFactor {
            throw FieldError("too_long", "\(field) is longer than \(limit) bytes", field: field)
        }
        if CanonicalText.longestNonStarterRun(text) > CanonicalText.maxNonStarters {
            throw FieldError(
                "invalid_characters",
                "\(field) has more than \(CanonicalText.maxNonStarters) combining marks in a row (Unicode's stream-safe bound)",
                field: field)
        }
        let string = CanonicalText.nfc(text)
        if string.utf8.count > limit {
            throw FieldError("too_long", "\(field) is longer than \(limit) bytes", field: field)
        }
        if let problem = TextCharacters.problem(in: string) {
            throw FieldError("invalid_characters", "\(field) contains \(problem)", field: field)
        }
        return string
    }
}
