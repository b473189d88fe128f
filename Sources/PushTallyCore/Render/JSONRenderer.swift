import Foundation

/// Renders report tables as `{"<name>": [ {...}, ... ]}`; keys sorted, so output is byte-for-byte stable.
public enum JSONRenderer {
    public static func render(_ table: ReportTable) -> Data {
        let extra = table.header
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values of known shape cannot fail.
        return (try? encoder.encode(Document(table: table, extra: extra))) ?? Data("{}".utf8)
    }

    /// The document of a table written a page at a time, around its rows: up to the rows' opening bracket,
    /// and from their closing one. With the pages' ``rows(_:)`` between them, joined by commas, it is byte for
    /// byte the document ``render(_:)`` writes of every page's rows at once.
    public static func frame(_ table: ReportTable) -> (head: Data, tail: Data) {
        var empty = table
        empty.rows = []
        let document = render(empty)
        // The key is the document's one `"<name>":[]`: inside a string value its quotes would be escaped.
        let marker = Data("\(String(decoding: encodedKey(table.name), as: UTF8.self)):[]".utf8)
        guard let range = document.range(of: marker) else { return (Data("{\"\(table.name)\":[".utf8), Data("]}".utf8)) }
        return (Data(document[..<(range.upperBound - 1)]), Data(document[(range.upperBound - 1)...]))
    }

    /// A page's rows as the document lists them, without the brackets: `{...},{...}`.
    public static func rows(_ table: ReportTable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain values of known shape cannot fail.
        let array = (try? encoder.encode(table.rows.map(Row.init))) ?? Data("[]".utf8)
        return array.dropFirst().dropLast()
    }

    /// A key as the encoder writes it, quoted and escaped.
    private static func encodedKey(_ name: String) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(name)) ?? Data("\"\(name)\"".utf8)
    }

    private struct Document: Encodable {
        let table: ReportTable
        let extra: [(String, ReportValue)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (name, value) in extra { try container.encode(Cell(value: value), forKey: AnyCodingKey(name)) }
            try container.encode(table.rows.map(Row.init), forKey: AnyCodingKey(table.name))
        }
    }

    private struct Row: Encodable {
        let fields: [(String, ReportValue)]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            for (name, value) in fields { try container.encode(Cell(value: value), forKey: AnyCodingKey(name)) }
        }
    }

    private struct Cell: Encodable {
        let value: ReportValue

        func encode(to encoder: any Encoder) throws {
            switch value {
            case .text(let text):
                var container = encoder.singleValueContainer()
                if let text { try container.encode(text) } else { try container.encodeNil() }
            case .integer(let n):
                var container = encoder.singleValueContainer()
                try container.encode(n)
            case .rate(let rate):
                var container = encoder.singleValueContainer()
                if let rate { try container.encode(rate) } else { try container.encodeNil() }
            case .seconds(let number), .optionalInteger(let number):
                var container = encoder.singleValueContainer()
                if let number { try container.encode(number) } else { try container.encodeNil() }
            case .flag(let flag):
                var container = encoder.singleValueContainer()
                try container.encode(flag)
            case .counts(let counts, _):
                var container = encoder.container(keyedBy: AnyCodingKey.self)
                for key in counts.keys.sorted() { try container.encode(counts[key]!, forKey: AnyCodingKey(key)) }
            case .money(let amounts, _):
                var container = encoder.container(keyedBy: AnyCodingKey.self)
                // Decimal, so 9.99 is written as 9.99 (a Double of millionths / 1e6 could print 9.9900000000000002).
                for key in amounts.keys.sorted() {
                    try container.encode(Decimal(string: amounts[key]!.text)!, forKey: AnyCodingKey(key))
                }
            }
        }
    }
}
