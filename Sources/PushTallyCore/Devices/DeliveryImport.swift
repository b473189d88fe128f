/// Reads delivery lines in bulk from CSV for `pushtally pushes import --deliveries`: a header row naming
/// `push_id`, `device_id`, `platform`, `outcome` and optionally `timestamp` and `recipient` (other columns are
/// ignored), one line per push and device. A bad row is reported with its number; the rest import.
public enum DeliveryImport {
    public struct Row: Sendable {
        public var number: Int
        public var result: Result<(pushID: String, line: DeliveryLine), FieldError>
    }

    public static func csv(_ text: String) -> [Row] {
        CSVParser.namedRows(text).map { number, cells in
            Row(number: number, result: Result { () throws(FieldError) in
                var object: [String: JSONValue] = [:]
                for (name, cell) in try cells.get() { object[name] = .string(cell) }
                guard case .string(let raw)? = object["push_id"], let pushID = try EventValidator.checkedText(raw, field: "push_id", limit: 128) else {
                    throw FieldError.missing("push_id")
                }
                return (pushID, try DeliveryReader.line(.object(object)))
            })
        }
    }
}
