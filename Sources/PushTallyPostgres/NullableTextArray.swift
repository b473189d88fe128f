import PostgresNIO

/// A `text[]` binding whose elements may be SQL NULL: postgres-nio encodes arrays of non-optional values
/// only, and a raw row's device, receipt, platform and version columns are NULL when the client sent none.
struct NullableTextArray: PostgresNonThrowingEncodable, PostgresDynamicTypeEncodable {
    var elements: [String?]

    init(_ elements: [String?]) {
        self.elements = elements
    }

    static var psqlType: PostgresDataType { .textArray }
    static var psqlFormat: PostgresFormat { .binary }

    /// PostgreSQL's binary array format: dimensions, whether any element is NULL, the element type, then the
    /// one dimension's length and lower bound, then each element as its length (-1 for NULL) and bytes.
    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains(nil) ? 1 : 0, as: Int32.self)
        buffer.writeInteger(PostgresDataType.text.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let written = buffer.writeString(element)
            buffer.setInteger(Int32(written), at: lengthIndex)
        }
    }
}
