import Foundation

/// One event as it waits in the outbox (one file) before it is posted to its route.
///
/// The file of a receipt or an action is the event's JSON object itself, as every earlier version of the
/// Kit wrote it, so files queued before sessions and conversions existed still decode, and are sent as
/// before. The kinds added later are wrapped in an object naming them (`{"session":{...}}`): an earlier
/// version never wrote those keys, so the two formats cannot be mistaken for each other.
enum OutboxEvent: Equatable, Sendable {
    case receipt(ReceiptEvent)
    case session(SessionEvent)
    case conversion(ConversionEvent)

    var route: Route {
        switch self {
        case .receipt(let receipt): receipt.route
        case .session: .sessions
        case .conversion: .conversions
        }
    }

    /// The event as one NDJSON line of a batch posted to `route`. `encoder` sorts keys.
    func wireLine(encoder: JSONEncoder) throws -> Data {
        switch self {
        case .receipt(let receipt): try encoder.encode(receipt)
        case .session(let session): try encoder.encode(session)
        case .conversion(let conversion): try conversion.wireLine(encoder: encoder)
        }
    }
}

/// The collector's ingest routes, one per kind of event.
enum Route: String, Equatable, Sendable {
    case receipts = "v1/receipts"
    case actions = "v1/actions"
    case sessions = "v1/sessions"
    case conversions = "v1/conversions"

    var path: String { rawValue }
}

extension OutboxEvent: Codable {
    private enum Wrapper: String, CodingKey {
        case session, conversion
    }

    init(from decoder: Decoder) throws {
        let wrapper = try decoder.container(keyedBy: Wrapper.self)
        if wrapper.contains(.session) {
            self = .session(try wrapper.decode(SessionEvent.self, forKey: .session))
        } else if wrapper.contains(.conversion) {
            self = .conversion(try wrapper.decode(ConversionEvent.self, forKey: .conversion))
        } else {
            self = .receipt(try ReceiptEvent(from: decoder))
        }
    }

    func encode(to encoder: Encoder) throws {
        switch self {
        case .receipt(let receipt):
            try receipt.encode(to: encoder)
        case .session(let session):
            var wrapper = encoder.container(keyedBy: Wrapper.self)
            try wrapper.encode(session, forKey: .session)
        case .conversion(let conversion):
            var wrapper = encoder.container(keyedBy: Wrapper.self)
            try wrapper.encode(conversion, forKey: .conversion)
        }
    }
}
