/// Reads RFC 4180 CSV: quoted fields, doubled quotes, CRLF or LF line ends, a leading UTF-8 BOM.
public enum CSVParser {
    /// Records as arrays of fields; a trailing line end does not add an empty record.
    public static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var fieldStarted = false
        var scalars = text.unicodeScalars[...]
        if scalars.first == "\u{FEFF}" { scalars = scalars.dropFirst() }
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let c = scalars[index]
            index = scalars.index(after: index)
            if quoted {
                if c == "\"" {
                    if index != scalars.endIndex, scalars[index] == "\"" {
                        field.unicodeScalars.append("\"")
                        index = scalars.index(after: index)
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case "\"":
                quoted = true
                fieldStarted = true
            case ",":
                record.append(field)
                field = ""
                fieldStarted = true
            case "\r":
                continue
            case "\n":
                record.append(field)
                records.append(record)
                record = []
                field = ""
                fieldStarted = false
            default:
                field.unicodeScalars.append(c)
                fieldStarted = true
            }
        }
        if fieldStarted || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}

extension CSVParser {
    /// The data rows of a file whose first row names the columns: each row's 1-based line number and its non-empty
    /// cells by column name, blank rows skipped. A row with more or fewer fields than the header is refused by
    /// itself (`malformed_csv`): a cell lost or one too many shifts every value after it into the wrong column.
    package static func namedRows(_ text: String) -> [(number: Int, cells: Result<[(name: String, value: String)], FieldError>)] {
        let records = parse(text)
        guard let header = records.first?.map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
        return records.dropFirst().enumerated().compactMap { offset, cells in
            if cells.allSatisfy({ $0.isEmpty }) { return nil }
            guard cells.count == header.count else {
                let error = FieldError(
                    "malformed_csv", "the row has \(cells.count) fields where the header names \(header.count); quote a value that holds a comma")
                return (offset + 2, .failure(error))
            }
            return (offset + 2, .success(zip(header, cells).filter { !$0.1.isEmpty }.map { (name: $0.0, value: $0.1) }))
        }
    }
}
