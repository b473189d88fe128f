/// The event feed as a Parquet file (https://parquet.apache.org/docs/file-format/): one row group, one data page
/// per column of ``FeedSchema/fields``, PLAIN values, definition levels for the optional columns, and each page
/// compressed by the caller's GZIP. No Parquet writer serves Swift on Linux, and this is all a warehouse load of
/// one export file needs; DuckDB and pyarrow read its files back in the tests.
public enum ParquetFile {
    /// How pages are compressed: Parquet's codec number and the function that compresses a page.
    public struct Codec: Sendable {
        let number: Int32
        let compress: @Sendable ([UInt8]) throws -> [UInt8]

        /// GZIP (RFC 1952), as `compress` writes it.
        public static func gzip(_ compress: @escaping @Sendable ([UInt8]) throws -> [UInt8]) -> Codec {
            Codec(number: 2, compress: compress)
        }

        /// No compression.
        public static let uncompressed = Codec(number: 0) { $0 }
    }

    /// The file's bytes for `events`, with `createdBy` naming the writer.
    public static func bytes(_ events: [ExportedEvent], codec: Codec, createdBy: String) throws -> [UInt8] {
        var file: [UInt8] = Array("PAR1".utf8)
        var chunks: [(field: FeedField, offset: Int64, uncompressed: Int64, compressed: Int64)] = []
        for field in FeedSchema.fields {
            let values = events.map(field.value)
            let page = Self.page(values, field: field)
            let compressed = try codec.compress(page)
            var header = ThriftCompactWriter()
            header.i32(1, 0)  // DATA_PAGE
            header.i32(2, Int32(page.count))
            header.i32(3, Int32(compressed.count))
            header.structure(5) { data in
                data.i32(1, Int32(values.count))
                data.i32(2, Encoding.plain)
                data.i32(3, Encoding.rle)
                data.i32(4, Encoding.rle)
            }
            header.stop()
            chunks.append((field, Int64(file.count), Int64(header.bytes.count + page.count), Int64(header.bytes.count + compressed.count)))
            file += header.bytes
            file += compressed
        }
        var footer = ThriftCompactWriter()
        footer.i32(1, 1)
        let root: [(name: String, field: FeedField?)] = [("schema", nil)] + FeedSchema.fields.map { ($0.name, $0) }
        footer.structList(2, root) { element, entry in
            guard let field = entry.field else {
                element.string(4, entry.name)
                element.i32(5, Int32(FeedSchema.fields.count))
                return
            }
            element.i32(1, physicalType(field.kind))
            element.i32(3, field.required ? 0 : 1)  // REQUIRED, OPTIONAL
            element.string(4, field.name)
            if field.kind == .text {
                element.i32(6, 0)  // UTF8
                element.structure(10) { logical in logical.structure(1) { _ in } }  // STRING
            }
        }
        footer.i64(3, Int64(events.count))
        footer.structList(4, [chunks]) { group, chunks in
            group.structList(1, chunks) { chunk, column in
                chunk.i64(2, column.offset)
                chunk.structure(3) { meta in
                    meta.i32(1, physicalType(column.field.kind))
                    meta.i32List(2, [Encoding.plain, Encoding.rle])
                    meta.stringList(3, [column.field.name])
                    meta.i32(4, codec.number)
                    meta.i64(5, Int64(events.count))
                    meta.i64(6, column.uncompressed)
                    meta.i64(7, column.compressed)
                    meta.i64(9, column.offset)
                }
            }
            group.i64(2, chunks.reduce(0) { $0 + $1.uncompressed })
            group.i64(3, Int64(events.count))
        }
        footer.structList(5, [("pushtally.schema_version", String(FeedSchema.version))]) { pair, entry in
            pair.string(1, entry.0)
            pair.string(2, entry.1)
        }
        footer.string(6, createdBy)
        footer.stop()
        file += footer.bytes
        file += littleEndian(UInt32(footer.bytes.count))
        file += Array("PAR1".utf8)
        return file
    }

    private enum Encoding {
        static let plain: Int32 = 0
        static let rle: Int32 = 3
    }

    private static func physicalType(_ kind: FeedField.Kind) -> Int32 {
        switch kind {
        case .boolean: 0
        case .integer: 2  // INT64
        case .text: 6  // BYTE_ARRAY
        }
    }

    /// A data page's bytes before compression: the definition levels of an optional column (1 present, 0 null;
    /// a bit-packed run of the hybrid encoding, after its 4-byte length), then the present values, PLAIN.
    private static func page(_ values: [FeedValue], field: FeedField) -> [UInt8] {
        var page: [UInt8] = []
        if !field.required {
            var levels = varint(UInt64((values.count + 7) / 8) << 1 | 1)
            levels += bitPacked(values.map { !$0.isNull })
            page += littleEndian(UInt32(levels.count))
            page += levels
        }
        var flags: [Bool] = []
        for value in values {
            switch value {
            case .text(let text?):
                page += littleEndian(UInt32(text.utf8.count))
                page += text.utf8
            case .integer(let integer?):
                page += littleEndian(UInt64(bitPattern: integer))
            case .boolean(let flag?):
                flags.append(flag)
            case .text(nil), .integer(nil), .boolean(nil):
                break
            }
        }
        if field.kind == .boolean { page += bitPacked(flags) }
        return page
    }

    /// Bits from the lowest of each byte up, padded with zeros to a whole byte.
    private static func bitPacked(_ bits: [Bool]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 1 << UInt8(index % 8) }
        return bytes
    }

    private static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
        return bytes
    }

    private static func littleEndian<Integer: FixedWidthInteger>(_ value: Integer) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
