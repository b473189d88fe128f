import Foundation

extension ReportTable {
    /// A table read back from ``JSONRenderer``'s output, each cell typed as `shape`'s template types it (a rate
    /// stays a rate, a duration a duration), its columns in the template's order.
    ///
    /// - Throws: `DecodingError` when the JSON is not such a report.
    public init(json: Data, shape: ReportTable) throws {
        let decoder = JSONDecoder()
        decoder.userInfo[ShapeKey.key] = shape
        self = try decoder.decode(Decoded.self, from: json).table
    }

    private enum ShapeKey {
        static let key = CodingUserInfoKey(rawValue: "pushtally.reportShape")!
    }

    private struct Decoded: Decodable {
        let table: ReportTable

        init(from decoder: any Decoder) throws {
            guard let shape = decoder.userInfo[ShapeKey.key] as? ReportTable else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no report shape"))
            }
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            var rows = try container.nestedUnkeyedContainer(forKey: AnyCodingKey(shape.name))
            var decoded: [[(String, ReportValue)]] = []
            while !rows.isAtEnd {
                let row = try rows.nestedContainer(keyedBy: AnyCodingKey.self)
                decoded.append(try Self.row(row, template: shape.template))
            }
            let header = try shape.header.map { name, kind in
                (name, try Self.value(container, AnyCodingKey(name), like: kind))
            }
            table = ReportTable(name: shape.name, rows: decoded, template: shape.template, header: header)
        }

        private static func row(
            _ row: KeyedDecodingContainer<AnyCodingKey>, template: [(String, ReportValue)]
        ) throws -> [(String, ReportValue)] {
            var fields: [(String, ReportValue)] = []
            for (name, kind) in template where row.contains(AnyCodingKey(name)) {
                fields.append((name, try value(row, AnyCodingKey(name), like: kind)))
            }
            return fields
        }

        private static func value(
            _ container: KeyedDecodingContainer<AnyCodingKey>, _ key: AnyCodingKey, like kind: ReportValue
        ) throws -> ReportValue {
            switch kind {
            case .text: .text(try container.decodeIfPresent(String.self, forKey: key))
            case .integer: .integer(try container.decode(Int64.self, forKey: key))
            case .rate: .rate(try container.decodeIfPresent(Double.self, forKey: key))
            case .seconds: .seconds(try container.decodeIfPresent(Int64.self, forKey: key))
            case .optionalInteger: .optionalInteger(try container.decodeIfPresent(Int64.self, forKey: key))
            case .flag: .flag(try container.decode(Bool.self, forKey: key))
            case .counts(_, let prefix): .counts(try container.decode([String: Int64].self, forKey: key), csvPrefix: prefix)
            case .money(_, let prefix):
                .money(try container.decode([String: Decimal].self, forKey: key).mapValues(Self.money), csvPrefix: prefix)
            }
        }

        /// A decoded amount, exactly (JSON's decimal text went through `Decimal`, which holds 38 digits).
        private static func money(_ amount: Decimal) throws -> MoneyTotal {
            var rounded = Decimal()
            var exact = amount
            NSDecimalRound(&rounded, &exact, 6, .plain)
            guard let total = MoneyTotal(text: rounded.description) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "\(amount) is not an amount of money"))
            }
            return total
        }
    }
}
