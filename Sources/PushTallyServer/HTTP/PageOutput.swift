import CompressNIO
import Foundation
import Hummingbird
import NIOCore

/// A streamed body's bytes, gzip-compressed as they go when the client accepts it.
struct PageOutput {
    var sink: any ResponseBodyWriter
    let compressor: NIOCompressor?

    init(_ sink: any ResponseBodyWriter, gzip: Bool) throws {
        self.sink = sink
        guard gzip else {
            compressor = nil
            return
        }
        let compressor = CompressionAlgorithm.gzip().compressor
        compressor.window = ByteBufferAllocator().buffer(capacity: 64 * 1024)
        try compressor.startStream()
        self.compressor = compressor
    }

    /// Writes `data`; with `flush`, everything written so far leaves the compressor now (a line a tailing
    /// reader is waiting for), not when its window fills.
    mutating func write(_ data: Data, flush: Bool = false) async throws {
        var buffer = ByteBuffer(data: data)
        guard let compressor else { return try await sink.write(buffer) }
        var compressed: [ByteBuffer] = []
        try buffer.compressStream(with: compressor, flush: flush ? .sync : .no) { compressed.append($0) }
        // compress-nio hands over its window only when it fills or at the finish: a flush takes what it holds.
        if flush, var window = compressor.window, window.readableBytes > 0 {
            compressed.append(window)
            window.clear()
            compressor.window = window
        }
        for part in compressed { try await sink.write(part) }
    }

    mutating func finish() async throws {
        if let compressor {
            var empty = ByteBuffer()
            var compressed: [ByteBuffer] = []
            try empty.compressStream(with: compressor, flush: .finish) { compressed.append($0) }
            try compressor.finishStream()
            for part in compressed { try await sink.write(part) }
        }
        try await sink.finish(nil)
    }
}
