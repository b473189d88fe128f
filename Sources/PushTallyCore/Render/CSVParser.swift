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
