import NIOCore
import PushTallyUseCases

/// A gzip request body inflated whole, within a byte limit: a gzip bomb costs at most the limit.
enum GzipBody {
    typealias Failure = GzipInflater.Failure

    /// The inflated bytes of every member of `body`, at most `maxBytes` of them.
    static func inflate(_ body: ByteBuffer, maxBytes: Int) throws(GzipInflater.Failure) -> ByteBuffer {
        let inflater = try GzipInflater()
        var output = ByteBufferAllocator().buffer(capacity: min(maxBytes, max(4096, body.readableBytes * 4)))
        let fed: Result<Void, GzipInflater.Failure> = body.withUnsafeReadableBytes { input in
            Result { () throws(GzipInflater.Failure) in
                try inflater.feed(input) { piece throws(GzipInflater.Failure) in
                    guard output.readableBytes + piece.count <= maxBytes else { throw .tooLarge }
                    output.writeBytes(piece)
                }
            }
        }
        try fed.get()
        try inflater.finish()
        return output
    }
}
