/// Validates what `POST /v1/sessions` and `POST /v1/conversions` take, with the same errors as receipts.
enum OutcomeValidator {
    static func validate(_ raw: RawEvent, kind: EventKind) throws(FieldError) -> IncomingEvent {
        // Attribution is per device: an event without one could never be attributed, so it is refused.
        guard let deviceID = try EventValidator.text(raw, "device_id") else { throw .missing("device_id") }
        let time = try raw.value(of: "ts").map { value throws(FieldError) in try Timestamp.millis(from: value, field: "ts") }
        if kind == .session {
            guard let sessionID = try EventValidator.text(raw, "session_id") else { throw .missing("session_id") }
            var session = IncomingEvent.session(
                deviceID: deviceID, sessionID: sessionID, deviceTimeMillis: time, app: try EventValidator.text(raw, "app"),
                appVersion: try EventValidator.text(raw, "app_version"))
            session.notificationPermission = try EventValidator.enumerated(raw, .notificationPermission, as: NotificationPermission.self)
            return session
        }
        guard let name = try EventValidator.text(raw, "event") else { throw .missing("event") }
        let value = try raw.value(of: "value").map { value throws(FieldError) in try MoneyAmount.micros(from: value, field: "value") }
        let currency = try EventValidator.text(raw, "currency").map { code throws(FieldError) in
            try CurrencyCode.validated(code, field: "currency")
        }
        if value != nil, currency == nil {
            throw FieldError("missing_field", "currency is required when value is given (an ISO 4217 code such as USD)", field: "currency")
        }
        if value == nil, currency != nil {
            throw FieldError("missing_field", "value is required when currency is given", field: "value")
        }
        return .conversion(
            deviceID: deviceID, name: name, valueMicros: value, currency: currency,
            conversionID: try EventValidator.text(raw, "conversion_id"), deviceTimeMillis: time)
    }
}
