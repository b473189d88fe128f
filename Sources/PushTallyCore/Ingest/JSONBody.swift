import Foundation

/// A coding key for any field name.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// A JSON scalar that the loose decoders below accept as a field value.
enum LooseJSONValue: Decodable {
    case string(String)
    case number(Double)
    case null
    case unsupported(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let bool = try? container.decode(Bool.self) {
            // Checked before numbers: Foundation would otherwise read `true` as 1.
            self = .unsupported("boolean \(bool)")
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if (try? decoder.container(keyedBy: AnyCodingKey.self)) != nil {
            self = .unsupported("an object")
        } else if (try? decoder.unkeyedContainer()) != nil {
            self = .unsupported("an array")
        } else {
            // Strings that are not text were refused before decoding (JSONTextCheck): what is left is a number
            // no 64-bit float holds, such as 1e309.
            self = .unsupported("a number beyond the range of a 64-bit float")
        }
    }
}

extension RawEvent: Decodable {
    /// Decodes the known fields of a JSON object loosely: type checks belong to validation, so that one bad
    /// element of a batch is rejected by itself with its field named.
    public init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: AnyCodingKey.self) else {
            self.init(notAnObject: true)
            return
        }
        var fields: [String: RawValue] = [:]
        for name in RawEvent.knownFields {
            let key = AnyCodingKey(name)
            guard container.contains(key) else { continue }
            switch try container.decode(LooseJSONValue.self, forKey: key) {
            case .string(let s): fields[name] = .string(s)
            case .number(let n): fields[name] = .number(n)
            case .null: break
            case .unsupported(let type): fields[name] = .unsupported(type)
            }
        }
        self.init(fields: fields)
    }
}

/// The shapes an ingest body can take.
public enum EventBody: Sendable {
    /// One form body or one JSON object: answered 204 (or a 4xx naming the problem).
    case single(RawEvent)
    /// A JSON array or NDJSON: answered 200 with accepted, duplicates and rejected entries.
    case batch([Result<RawEvent, FieldError>])

    /// Decodes a JSON body: an object is a single event, an array a batch.
    public static func json(_ data: Data) throws(FieldError) -> EventBody {
        let result = data.withUnsafeBytes { bytes in Result { () throws(FieldError) -> EventBody in try json(bytes) } }
        return try result.get()
    }

    /// Decodes a JSON body in place (``json(_:)-(Data)``); the common flat shapes skip Foundation's decoder.
    public static func json(_ bytes: UnsafeRawBufferPointer) throws(FieldError) -> EventBody {
        if let wide = JSONTextCheck.wideEncoding(bytes, of: "the body") { throw wide }
        let first = bytes.first { !FlatJSONScanner.isWhitespace($0) }
        do {
            switch first {
            case UInt8(ascii: "{"):
                if let event = FlatJSONScanner.event(bytes) { return .single(event) }
                if let problem = JSONTextCheck.problem(in: bytes, of: "the body") { throw problem }
                return .single(try JSONDecoder().decode(RawEvent.self, from: Data(bytes)))
            case UInt8(ascii: "["):
                if let events = FlatJSONScanner.events(array: bytes) { return .batch(events.map { .success($0) }) }
                if let problem = JSONTextCheck.problem(in: bytes, of: "the body") { throw problem }
                return .batch(try JSONDecoder().decode([RawEvent].self, from: Data(bytes)).map { .success($0) })
            case nil:
                throw FieldError("empty_body", "the request body is empty")
            default:
                throw FieldError("malformed_json", "expected a JSON object or an array of objects")
            }
        } catch let error as FieldError {
            throw error
        } catch {
            throw FieldError("malformed_json", "the body is not valid JSON: \(describe(error))")
        }
    }

    /// Decodes newline-delimited JSON: one object a line, blank lines ignored, a bad line rejected by itself.
    public static func ndjson(_ data: Data) -> EventBody {
        data.withUnsafeBytes { ndjson($0) }
    }

    /// Decodes newline-delimited JSON in place (``ndjson(_:)-(Data)``): lines of the common flat shape skip
    /// Foundation's decoder, and no line is copied unless it needs it.
    public static func ndjson(_ bytes: UnsafeRawBufferPointer) -> EventBody {
        var decoder: JSONDecoder?
        var events: [Result<RawEvent, FieldError>] = []
        var start = 0
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            guard line.contains(where: { !FlatJSONScanner.isWhitespace($0) }) else { continue }
            if let event = FlatJSONScanner.event(line) {
                events.append(.success(event))
                continue
            }
            if let problem = JSONTextCheck.problem(in: line, of: "the line") {
                events.append(.failure(problem))
                continue
            }
            do {
                if decoder == nil { decoder = JSONDecoder() }
                events.append(.success(try decoder!.decode(RawEvent.self, from: Data(line))))
            } catch {
                events.append(.failure(FieldError("malformed_json", "line is not valid JSON: \(describe(error))")))
            }
        }
        return .batch(events)
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.typeMismatch(_, let context): context.debugDescription
        default: "unreadable"
        }
    }
}
