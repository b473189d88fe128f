import PostgresNIO

/// A `bigint[]` binding whose elements may be SQL NULL (a display that did not report its extension time),
/// in the binary array format ``NullableTextArray`` describes.
struct NullableIntegerArray: PostgresNonThrowingEncodable, PostgresDynamicTypeEncodable {
    var elements: [Int64?]

    init(_ elements: [Int64?]) {
        self.elements = elements
    }

    static var psqlType: PostgresDataType { .int8Array }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains(nil) ? 1 : 0, as: Int32.self)
        buffer.writeInteger(PostgresDataType.int8.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            buffer.writeInteger(8, as: Int32.self)
            buffer.writeInteger(element, as: Int64.self)
        }
    }
}
