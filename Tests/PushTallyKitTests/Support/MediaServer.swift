import Foundation
import PushTallyTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A media host on loopback for display tests, one thread per connection (never the cooperative pool):
/// - `/file?type=<MIME type>&bytes=<count>` answers `200` with that `Content-Type` and that many bytes;
/// - `/slow` reads the request and never answers, until the client gives up or the server stops;
/// - anything else answers `404`.
/// `arrivals` yields each request's path as it arrives.
final class MediaServer: @unchecked Sendable {
    let port: Int
    let arrivals: AsyncStream<String>
    private let arrival: AsyncStream<String>.Continuation
    private let listener: Int32
    // Guards `connections` and `stopped`.
    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var stopped = false

    init() throws {
        (listener, port) = try boundLoopbackSocket(listening: true)
        (arrivals, arrival) = AsyncStream.makeStream(of: String.self)
        Thread { [self] in acceptLoop() }.start()
    }

    func url(_ pathAndQuery: String) -> String { "http://127.0.0.1:\(port)\(pathAndQuery)" }

    /// `/file` for `type` and `bytes`.
    func file(_ type: String, bytes: Int) -> String {
        url("/file?type=\(type.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? type)&bytes=\(bytes)")
    }

    /// Stops accepting and ends every open connection (a `/slow` one included).
    func stop() {
        lock.lock()
        stopped = true
        let open = connections
        lock.unlock()
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        arrival.finish()
    }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                return
            }
            lock.lock()
            let refused = stopped
            if !refused { connections.insert(fd) }
            lock.unlock()
            if refused {
                close(fd)
                return
            }
            Thread { [self] in
                serve(fd)
                lock.lock()
                connections.remove(fd)
                lock.unlock()
                close(fd)
            }.start()
        }
    }

    private func serve(_ fd: Int32) {
        guard let target = readRequestTarget(fd) else { return }
        let components = URLComponents(string: target)
        arrival.yield(components?.path ?? target)
        let query = Dictionary(
            (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        switch components?.path {
        case "/slow":
            var byte: UInt8 = 0
            while recv(fd, &byte, 1, 0) > 0 {}
        case "/file":
            let count = Int(query["bytes"] ?? "") ?? 0
            respond(fd, status: "200 OK", type: query["type"] ?? "application/octet-stream", body: Data(repeating: 0xA5, count: count))
        default:
            respond(fd, status: "404 Not Found", type: "text/plain", body: Data("not found".utf8))
        }
    }

    /// The request line's target, once the whole head has arrived.
    private func readRequestTarget(_ fd: Int32) -> String? {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            head.append(byte)
        }
        let requestLine = String(decoding: head, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = requestLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    private func respond(_ fd: Int32, status: String, type: String, body: Data) {
        let head = "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        var bytes = Data(head.utf8)
        bytes.append(body)
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let count = send(fd, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return }
                sent += count
            }
        }
        shutdown(fd, Int32(SHUT_WR))
    }
}
