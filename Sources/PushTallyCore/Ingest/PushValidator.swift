/// Validates the backend's send records.
public enum PushValidator {
    /// The environments APNs has.
    public static let environments: Set<String> = ["production", "sandbox"]

    /// A registration from a JSON object; `pushID` comes from the URL when given, else from the body.
    public static func registration(_ value: JSONValue, pushID: String? = nil) throws(FieldError) -> PushRegistration {
        guard case .object(let object) = value else {
            throw FieldError("malformed_json", "a push record must be a JSON object")
        }
        let id = try pushIDField(object, fromURL: pushID)
        guard let campaign = try string(object, "campaign", limit: 256) else { throw .missing("campaign") }
        var environment: String?
        if let env = try string(object, "environment", limit: 16) {
            guard environments.contains(env) else {
                throw FieldError("bad_value", "environment must be production or sandbox", field: "environment")
            }
            environment = env
        }
        return PushRegistration(
            pushID: id,
            campaign: campaign,
            title: try string(object, "title", limit: 1024),
            sentAtMillis: try object["sent_at"].flatMap(\.rawValue).map { value throws(FieldError) in
                try Timestamp.millis(from: value, field: "sent_at")
            },
            app: try string(object, "app", limit: 256),
            environment: environment,
            counts: try counts(object),
            attributes: try attributes(object)
        )
    }

    /// `variant`, `collapse_id`, `priority`, `push_type` and `expiration`, each refused with its name.
    static func attributes(_ object: [String: JSONValue]) throws(FieldError) -> SendAttributes {
        let limit = SendAttributes.maximumBytes
        var attributes = SendAttributes(
            variant: try string(object, "variant", limit: limit), collapseID: try string(object, "collapse_id", limit: limit))
        if let value = object["priority"]?.rawValue {
            let number: Double? = switch value {
            case .number(let n): n
            case .string(let text): Double(text)
            case .unsupported: nil
            }
            guard let number, let priority = SendAttributes.priorities.first(where: { Double($0) == number }) else {
                throw FieldError("bad_value", "priority must be 5 or 10, as apns-priority takes", field: "priority")
            }
            attributes.priority = priority
        }
        if let pushType = try string(object, "push_type", limit: 32) {
            guard SendAttributes.pushTypes.contains(pushType) else {
                throw ReportQuery.notAllowed("push_type", pushType, SendAttributes.pushTypes)
            }
            attributes.pushType = pushType
        }
        if let value = object["expiration"]?.rawValue {
            // 0 is APNs' "do not store"; anything else is a time, as sent_at is.
            if case .number(0) = value {
                attributes.expirationMillis = 0
            } else if case .string("0") = value {
                attributes.expirationMillis = 0
            } else {
                attributes.expirationMillis = try Timestamp.millis(from: value, field: "expiration")
            }
        }
        return attributes
    }

    /// A batch of sends from one worker, idempotent by `batch_id`.
    public static func sendBatch(_ value: JSONValue, pushID: String) throws(FieldError) -> SendBatch {
        guard case .object(let object) = value else {
            throw FieldError("malformed_json", "a send batch must be a JSON object")
        }
        let id = try pushIDField(object, fromURL: pushID)
        guard let batchID = try string(object, "batch_id", limit: 128) else { throw .missing("batch_id") }
        guard !batchID.hasPrefix(DeliveryRecords.prefix) else {
            throw FieldError(
                "bad_value", "batch_id may not start with \(DeliveryRecords.prefix): per-device deliveries keep their records under it",
                field: "batch_id")
        }
        return SendBatch(
            pushID: id, batchID: batchID, campaign: try string(object, "campaign", limit: 256),
            counts: try counts(object))
    }

    private static func pushIDField(_ object: [String: JSONValue], fromURL: String?) throws(FieldError) -> String {
        if let fromURL {
            guard let id = try EventValidator.checkedText(fromURL, field: "push_id", limit: 128) else {
                throw .missing("push_id")
            }
            if let body = try string(object, "push_id", limit: 128), body != id {
                throw FieldError("conflict", "push_id in the body differs from the URL", field: "push_id")
            }
            return id
        }
        guard let id = try string(object, "push_id", limit: 128) else { throw .missing("push_id") }
        return id
    }

    private static func string(_ object: [String: JSONValue], _ field: String, limit: Int) throws(FieldError) -> String? {
        guard let value = object[field]?.rawValue else { return nil }
        return try EventValidator.text(RawEvent(fields: [field: value]), field, limit: limit)
    }

    private static func counts(_ object: [String: JSONValue]) throws(FieldError) -> SendCounts {
        var failed: [String: Int64] = [:]
        switch object["failed"] {
        case nil, .null?:
            break
        case .object(let reasons)?:
            for (name, count) in reasons {
                guard let reason = try? EventValidator.checkedText(name, field: "failed", limit: 64) else {
                    throw FieldError("bad_value", "failure reasons must be 1 to 64 printable bytes", field: "failed")
                }
                failed[reason] = try wholeNumber(count, field: "failed.\(reason)")
            }
        case .number(let total)?:
            // A backend that only knows how many failed, not why.
            failed["Other"] = try wholeNumber(.number(total), field: "failed")
        default:
            throw FieldError("bad_type", "failed must be an object of reason to count", field: "failed")
        }
        return SendCounts(
            targeted: try object["targeted"].map { v throws(FieldError) in try wholeNumber(v, field: "targeted") } ?? 0,
            sent: try object["sent"].map { v throws(FieldError) in try wholeNumber(v, field: "sent") } ?? 0,
            failed: failed,
            // The events' own rule and limit, so a send's platform and its receipts' compare as the same text.
            platform: try string(object, "platform", limit: EventValidator.limits["platform"] ?? 32).map(PlatformName.folded))
    }

    private static func wholeNumber(_ value: JSONValue, field: String) throws(FieldError) -> Int64 {
        switch value {
        case .null:
            return 0
        case .number(let n) where n.rounded() == n && n >= 0 && n <= 1e15:
            return Int64(n)
        default:
            throw FieldError("bad_value", "\(field) must be a whole number from 0 to 10^15", field: field)
        }
    }
}
