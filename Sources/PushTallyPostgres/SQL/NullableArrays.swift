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

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        writeNullableArray(elements, of: .text, into: &buffer) { element, buffer in
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let written = buffer.writeString(element)
            buffer.setInteger(Int32(written), at: lengthIndex)
        }
    }
}

/// A `bigint[]` binding whose elements may be SQL NULL (a display that did not report its extension time).
struct NullableIntegerArray: PostgresNonThrowingEncodable, PostgresDynamicTypeEncodable {
    var elements: [Int64?]

    init(_ elements: [Int64?]) {
        self.elements = elements
    }

    static var psqlType: PostgresDataType { .int8Array }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        writeNullableArray(elements, of: .int8, into: &buffer) { element, buffer in
            buffer.writeInteger(8, as: Int32.self)
            buffer.writeInteger(element, as: Int64.self)
        }
    }
}

/// PostgreSQL's binary array format: dimensions, whether any element is NULL, the element type, then the
/// one dimension's length and lower bound, then each element as its length (-1 for NULL) and bytes
/// (`write` writes both for a present element).
private func writeNullableArray<Element>(
    _ elements: [Element?], of type: PostgresDataType, into buffer: inout ByteBuffer,
    write: (Element, inout ByteBuffer) -> Void
) {
    buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
    buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
    buffer.writeInteger(type.rawValue)
    guard !elements.isEmpty else { return }
    buffer.writeInteger(Int32(elements.count))
    buffer.writeInteger(1, as: Int32.self)
    for element in elements {
        guard let element else {
            buffer.writeInteger(-1, as: Int32.self)
            continue
        }
        write(element, &buffer)
    }
}
