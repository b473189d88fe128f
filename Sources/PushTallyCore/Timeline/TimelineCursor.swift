import Foundation

/// Where a device timeline page ended: the last event's time and row id, the order the timeline is read in.
/// Clients pass it back as `after` without reading it, so its text form may change between versions.
public struct TimelineCursor: Sendable, Hashable {
    public var eventTimeMillis: Int64
    public var row: Int64

    public init(eventTimeMillis: Int64, row: Int64) {
        self.eventTimeMillis = eventTimeMillis
        self.row = row
    }

    /// The position before every event: a first page reads from here.
    public static let start = TimelineCursor(eventTimeMillis: .min, row: .min)

    /// `t1.` and the two numbers in unpadded base64url: opaque, and safe in a URL without encoding.
    public var text: String {
        let plain = Data("\(eventTimeMillis):\(row)".utf8).base64EncodedString()
        return "t1." + String(plain.compactMap { character -> Character? in
            switch character {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: character
            }
        })
    }

    /// Reads ``text`` back. - Throws: a 400 naming `after` for anything this version did not write.
    public init(text: String) throws(FieldError) {
        let refusal = FieldError("bad_value", "after must be the next cursor of an earlier timeline page", field: "after")
        guard text.hasPrefix("t1."), text.utf8.count <= 64 else { throw refusal }
        var base64 = String(text.dropFirst(3).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        guard !base64.contains("=") else { throw refusal }
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let plain = String(data: data, encoding: .utf8) else { throw refusal }
        let parts = plain.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let time = Int64(parts[0]), let row = Int64(parts[1]) else { throw refusal }
        self.init(eventTimeMillis: time, row: row)
    }
}
