import CompressNIO
import Foundation
import NIOCore
import PushTallyUseCases

/// Writes a gzip file as a stream: memory stays at one window whatever the export's size.
final class GzipFileWriter {
    private let handle: FileHandle
    private let compressor = CompressionAlgorithm.gzip().compressor

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        compressor.window = ByteBufferAllocator().buffer(capacity: 64 * 1024)
        try compressor.startStream()
    }

    func write(_ text: String) throws {
        var buffer = ByteBuffer(string: text)
        try buffer.compressStream(with: compressor, flush: .no) { try handle.write(contentsOf: Data($0.readableBytesView)) }
    }

    func finish() throws {
        var empty = ByteBuffer()
        try empty.compressStream(with: compressor, flush: .finish) { try handle.write(contentsOf: Data($0.readableBytesView)) }
        try compressor.finishStream()
        try handle.synchronize()
        try handle.close()
    }
}

/// Reads a gzip file line by line as a stream, handing over lines in chunks. Every member of the file is read
/// and checked (a file cut short, or with bytes after its last member, is refused), as request bodies are.
enum GzipFileReader {
    static func lines(path: String, chunk: Int = 5000, _ body: ([String]) async throws -> Void) async throws {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        let inflater = try GzipInflater()
        var pending = Data()
        var lines: [String] = []
        while let data = try handle.read(upToCount: 64 * 1024), !data.isEmpty {
            try data.withUnsafeBytes { input in
                try inflater.feed(input) { piece in pending.append(contentsOf: piece) }
            }
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                pending.removeSubrange(pending.startIndex...newline)
            }
            if lines.count >= chunk {
                try await body(lines)
                lines.removeAll(keepingCapacity: true)
            }
        }
        try inflater.finish()
        if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
        if !lines.isEmpty { try await body(lines) }
    }
}
