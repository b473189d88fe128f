/// JSON written by appending text: message bodies are built on the writer's commit path, where
/// `JSONEncoder` (a dictionary and a boxed value per field) cost several times as much.
package struct JSONText: Sendable {
    package private(set) var text = ""

    package init() {}

    /// Starts an object; the fields come through ``field(_:_:)`` and friends, then ``close()``.
    package mutating func open() {
        text.append("{")
        first = true
    }

    package mutating func close() {
        text.append("}")
        first = false
    }

    private var first = true

    private mutating func key(_ name: String) {
        if !first { text.append(",") }
        first = false
        Self.appendQuoted(name, to: &text)
        text.append(":")
    }

    package mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { Self.appendQuoted(value, to: &text) } else { text.append("null") }
    }

    package mutating func field(_ name: String, _ value: Int64?) {
        key(name)
        text.append(value.map(String.init) ?? "null")
    }

    package mutating func field(_ name: String, _ value: Double?) {
        key(name)
        text.append(value.map { $0.isFinite ? String($0) : "null" } ?? "null")
    }

    /// Text appended as is, between objects (a separator).
    package mutating func raw(_ text: String) {
        self.text.append(text)
    }

    /// A field whose value is already JSON (an object or an array built elsewhere).
    package mutating func field(_ name: String, json: String) {
        key(name)
        text.append(json)
    }

    package static func quoted(_ value: String) -> String {
        var out = ""
        appendQuoted(value, to: &out)
        return out
    }

    private static func appendQuoted(_ value: String, to out: inout String) {
        out.append("\"")
        var plain = true
        for byte in value.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            plain = false
            break
        }
        if plain {
            out.append(value)
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out.append("\\\"")
                case "\\": out.append("\\\\")
                case "\n": out.append("\\n")
                case "\r": out.append("\\r")
                case "\t": out.append("\\t")
                case _ where scalar.value < 0x20:
                    out.append("\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16))
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }
}
