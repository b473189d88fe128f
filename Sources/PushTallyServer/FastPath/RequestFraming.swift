import Foundation
import NIOCore

/// Where a connection's bytes are in the framing of its requests (``TrailingListElements``).
struct RequestFraming {
    private enum State: Equatable {
        /// At the start of a head's next line; `requestLine` while the request line has not come.
        case head(requestLine: Bool)
        case fixedBody(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        /// The CRLF after a chunk's data: how many of its bytes have come.
        case chunkEnd(seen: Int)
        case trailers
        /// Something not followed exactly: every later byte goes to the parser untouched.
        case untouched
    }

    /// What the head being read says of the body that follows it.
    private struct Head {
        var http10 = false
        var connect = false
        var contentLength: Int?
        var contentLengths = 0
        var transferEncoding = false
        var endsChunked = false
    }

    private var state = State.head(requestLine: true)
    private var head = Head()

    /// What one read comes to: how many of its bytes may go on now (the rest is a line still open), and the
    /// offsets of the commas to turn into spaces.
    struct Outcome {
        var consumed: Int
        var commas: [Int]
        /// The offsets of `Upgrade` field names to rename ``ignoredName``.
        var upgrades: [Int] = []
    }

    /// What an `Upgrade` field is renamed: a name of the same length that no parser acts on.
    static let ignoredName = Array("Ignored".utf8)

    /// The offset of an `Upgrade` field name in the line being taken, moved into the read's outcome.
    private var upgradeInLine: Int?

    mutating func read(_ bytes: UnsafeRawBufferPointer) -> Outcome {
        var commas: [Int] = []
        var upgrades: [Int] = []
        var index = 0
        let end = bytes.count
        while index < end {
            switch state {
            case .untouched:
                return Outcome(consumed: end, commas: commas, upgrades: upgrades)
            case .fixedBody(let remaining):
                let taken = min(remaining, end - index)
                index += taken
                state = remaining == taken ? .head(requestLine: true) : .fixedBody(remaining: remaining - taken)
            case .chunkData(let remaining):
                let taken = min(remaining, end - index)
                index += taken
                state = remaining == taken ? .chunkEnd(seen: 0) : .chunkData(remaining: remaining - taken)
            case .chunkEnd(let seen):
                let expected = seen == 0 ? UInt8(ascii: "\r") : UInt8(ascii: "\n")
                guard bytes[index] == expected else {
                    state = .untouched
                    continue
                }
                index += 1
                state = seen == 0 ? .chunkEnd(seen: 1) : .chunkSize
            case .head, .chunkSize, .trailers:
                guard let newline = Self.newline(in: bytes, from: index) else {
                    if end - index > TrailingListElements.lineBound { state = .untouched; continue }
                    return Outcome(consumed: index, commas: commas, upgrades: upgrades)
                }
                guard newline > index, bytes[newline - 1] == UInt8(ascii: "\r"), newline - index <= TrailingListElements.lineBound else {
                    state = .untouched
                    continue
                }
                commas += take(UnsafeRawBufferPointer(rebasing: bytes[index..<newline - 1])).map { $0 + index }
                if let upgrade = upgradeInLine {
                    upgrades.append(upgrade + index)
                    upgradeInLine = nil
                }
                index = newline + 1
            }
        }
        return Outcome(consumed: end, commas: commas, upgrades: upgrades)
    }

    /// The index of the next LF at or after `start`.
    private static func newline(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count,
            let found = memchr(base + start, Int32(UInt8(ascii: "\n")), bytes.count - start)
        else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// Takes one line (without its CRLF) in a line state; returns the offsets in it of commas to blank.
    private mutating func take(_ line: UnsafeRawBufferPointer) -> [Int] {
        switch state {
        case .head(let requestLine):
            if requestLine {
                // The parser skips empty lines before a request line.
                if !line.isEmpty { requestLineRead(line) }
                return []
            }
            if line.isEmpty {
                headEnded()
                return []
            }
            return fieldLine(line)
        case .chunkSize:
            chunkSizeRead(line)
            return []
        case .trailers:
            if line.isEmpty { state = .head(requestLine: true) }
            return []
        default:
            return []
        }
    }

    private mutating func requestLineRead(_ line: UnsafeRawBufferPointer) {
        head = Head()
        let space = UInt8(ascii: " ")
        guard let first = line.firstIndex(of: space), let last = line.lastIndex(of: space), first < last,
            !line[(first + 1)..<last].contains(space)
        else { return state = .untouched }
        let version = line[(last + 1)...]
        if version.elementsEqual("HTTP/1.0".utf8) {
            head.http10 = true
        } else if !version.elementsEqual("HTTP/1.1".utf8) {
            return state = .untouched
        }
        head.connect = line[..<first].elementsEqual("CONNECT".utf8)
        state = .head(requestLine: false)
    }

    private mutating func fieldLine(_ line: UnsafeRawBufferPointer) -> [Int] {
        // Only three names change the framing; most lines are told apart by their first byte. A line that starts
        // with whitespace is an obsolete folded continuation.
        if Self.isSpace(line[0]) {
            state = .untouched
            return []
        }
        switch line[0] | 0x20 {
        case UInt8(ascii: "t"), UInt8(ascii: "c"), UInt8(ascii: "u"): break
        default: return []
        }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0, !line[..<colon].contains(where: Self.isSpace) else {
            state = .untouched
            return []
        }
        let name = line[..<colon]
        let value = line[(colon + 1)...]
        // A tab is optional whitespace as a space is (RFC 9110 §5.6.3), but llhttp refuses one around these two
        // values: each becomes a space.
        if Self.isNamed(name, "transfer-encoding") {
            head.transferEncoding = true
            return codings(value) + Self.tabs(in: value)
        } else if Self.isNamed(name, "content-length") {
            let digits = Self.trimmed(value)
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (48...57).contains($0) }) else {
                state = .untouched
                return []
            }
            head.contentLength = digits.reduce(0) { $0 * 10 + Int($1 - 48) }
            head.contentLengths += 1
            return Self.tabs(in: value)
        } else if Self.isNamed(name, "upgrade") {
            upgradeInLine = 0
        }
        return []
    }

    /// Reads a `Transfer-Encoding` value: whether its last coding is `chunked`, and the commas after it.
    private mutating func codings(_ value: Slice<UnsafeRawBufferPointer>) -> [Int] {
        let elements = value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
        guard let last = elements.lastIndex(where: { !Self.trimmed($0).isEmpty }) else {
            head.endsChunked = false
            return []
        }
        head.endsChunked = Self.isNamed(Self.trimmed(elements[last]), "chunked")
        guard head.endsChunked, last < elements.count - 1 else { return [] }
        // Offsets in the line, as the value's slice indices are.
        return value[elements[last].endIndex...].indices.filter { value[$0] == UInt8(ascii: ",") }
    }

    private mutating func headEnded() {
        if head.connect || head.contentLengths > 1 || (head.transferEncoding && head.contentLengths > 0) {
            return state = .untouched
        }
        if head.transferEncoding {
            state = head.endsChunked && !head.http10 ? .chunkSize : .untouched
        } else if let length = head.contentLength, length > 0 {
            state = .fixedBody(remaining: length)
        } else {
            state = .head(requestLine: true)
        }
    }

    private mutating func chunkSizeRead(_ line: UnsafeRawBufferPointer) {
        let digits = line.prefix { Self.hexValue($0) != nil }
        let rest = line.dropFirst(digits.count)
        guard !digits.isEmpty, digits.count <= 15, rest.isEmpty || rest.first == UInt8(ascii: ";") else {
            return state = .untouched
        }
        let size = digits.reduce(0) { $0 * 16 + Self.hexValue($1)! }
        state = size == 0 ? .trailers : .chunkData(remaining: size)
    }

    /// The offsets of the tabs in a field's value. A loop over the bounds, not `indices.filter`: the slice's
    /// `indices` is reached through its generic getter, a metadata look-up on every `Content-Length` line.
    private static func tabs(in value: Slice<UnsafeRawBufferPointer>) -> [Int] {
        var offsets: [Int] = []
        for offset in value.startIndex..<value.endIndex where value[offset] == UInt8(ascii: "\t") { offsets.append(offset) }
        return offsets
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    /// `bytes` without the optional whitespace around it.
    private static func trimmed(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    /// Whether `bytes` spell `lowercase` in any case.
    private static func isNamed(_ bytes: Slice<UnsafeRawBufferPointer>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { name in zip(bytes, name).allSatisfy { (65...90).contains($0) ? $0 + 32 == $1 : $0 == $1 } }
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
