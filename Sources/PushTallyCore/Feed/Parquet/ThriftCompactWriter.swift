/// Thrift's compact protocol, as far as Parquet's page headers and file metadata need it: structs of
/// integers, strings, booleans, lists and structs (https://github.com/apache/thrift/blob/master/doc/specs/thrift-compact-protocol.md).
struct ThriftCompactWriter {
    private(set) var bytes: [UInt8] = []
    /// The last field id written in each open struct: field headers carry the difference.
    private var lastFieldIDs: [Int16] = [0]

    private enum TypeCode: UInt8 {
        case booleanTrue = 1, booleanFalse = 2, i32 = 5, i64 = 6, binary = 8, list = 9, structure = 12
    }

    mutating func i32(_ id: Int16, _ value: Int32) {
        fieldHeader(id, .i32)
        varint(zigzag(Int64(value)))
    }

    mutating func i64(_ id: Int16, _ value: Int64) {
        fieldHeader(id, .i64)
        varint(zigzag(value))
    }

    mutating func string(_ id: Int16, _ value: String) {
        fieldHeader(id, .binary)
        binary(Array(value.utf8))
    }

    mutating func boolean(_ id: Int16, _ value: Bool) {
        fieldHeader(id, value ? .booleanTrue : .booleanFalse)
    }

    /// A struct field: `body` writes its fields.
    mutating func structure(_ id: Int16, _ body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .structure)
        nested(body)
    }

    /// A list of structs, each written by `body`.
    mutating func structList<Element>(_ id: Int16, _ elements: [Element], _ body: (inout ThriftCompactWriter, Element) -> Void) {
        fieldHeader(id, .list)
        listHeader(elements.count, .structure)
        for element in elements { nested { body(&$0, element) } }
    }

    mutating func i32List(_ id: Int16, _ values: [Int32]) {
        fieldHeader(id, .list)
        listHeader(values.count, .i32)
        for value in values { varint(zigzag(Int64(value))) }
    }

    mutating func stringList(_ id: Int16, _ values: [String]) {
        fieldHeader(id, .list)
        listHeader(values.count, .binary)
        for value in values { binary(Array(value.utf8)) }
    }

    /// Ends the outermost struct (a page header or the file metadata).
    mutating func stop() {
        bytes.append(0)
    }

    private mutating func nested(_ body: (inout ThriftCompactWriter) -> Void) {
        lastFieldIDs.append(0)
        body(&self)
        bytes.append(0)
        lastFieldIDs.removeLast()
    }

    private mutating func fieldHeader(_ id: Int16, _ type: TypeCode) {
        let delta = id - lastFieldIDs[lastFieldIDs.count - 1]
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            varint(zigzag(Int64(id)))
        }
        lastFieldIDs[lastFieldIDs.count - 1] = id
    }

    private mutating func listHeader(_ count: Int, _ type: TypeCode) {
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            varint(UInt64(count))
        }
    }

    private mutating func binary(_ value: [UInt8]) {
        varint(UInt64(value.count))
        bytes += value
    }

    private mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private func zigzag(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value << 1) ^ (value >> 63))
    }
}
