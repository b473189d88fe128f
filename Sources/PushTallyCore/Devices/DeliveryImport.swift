/// Reads delivery lines in bulk from CSV for `pushtally pushes import --deliveries`: a header row naming
/// `push_id`, `device_id`, `platform`, `outcome` and optionally `timestamp` and `recipient` (other columns are
/// ignored), one line per push and device. A bad row is reported with its number; the rest import.
public enum DeliveryImport {
    public struct Row: Sendable {
        public var number: Int
        public var result: Result<(pushID: String, line: DeliveryLine), FieldError>
    }

    public static func csv(_ text: String) -> [Row] {
        let records = CSVParser.parse(text)
        guard let header = records.first?.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
        return records.dropFirst().enumerated().compactMap { offset, cells in
            if cells.allSatisfy({ $0.isEmpty }) { return nil }
            guard cells.count == header.count else {
                let error = FieldError(
                    "malformed_csv", "the row has \(cells.count) fields where the header names \(header.count); quote a value that holds a comma")
                return Row(number: offset + 2, result: .failure(error))
            }
            var object: [String: JSONValue] = [:]
            for (name, cell) in zip(header, cells) where !cell.isEmpty { object[name] = .string(cell) }
            return Row(number: offset + 2, result: Result { () throws(FieldError) in
                guard case .string(let raw)? = object["push_id"], let pushID = try EventValidator.checkedText(raw, field: "push_id", limit: 128) else {
                    throw FieldError.missing("push_id")
                }
                return (pushID, try DeliveryReader.line(.object(object)))
            })
        }
    }
}
