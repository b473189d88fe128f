import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Sends raw bytes over a TCP connection to loopback and returns everything read until the peer closes
/// or `expectResponses` HTTP status lines have arrived; the socket is read on a thread of its own. With
/// `halfClose`, the client shuts its sending side down after the bytes (`shutdown(SHUT_WR)`).
public func rawExchange(port: Int, _ bytes: [UInt8], expectResponses: Int = 1, halfClose: Bool = false) async throws -> String {
    try await blocking { try blockingRawExchange(port: port, bytes, expectResponses: expectResponses, halfClose: halfClose) }
}

private func blockingRawExchange(port: Int, _ bytes: [UInt8], expectResponses: Int, halfClose: Bool) throws -> String {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw TestFailure("connect failed") }
    _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    if halfClose { shutdown(fd, Int32(SHUT_WR)) }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count < 0, errno == EINTR { continue }
        if count <= 0 { break }
        received += buffer[0..<count]
        let text = String(decoding: received, as: UTF8.self)
        if text.components(separatedBy: "HTTP/1.1 ").count - 1 >= expectResponses, text.hasSuffix("\r\n\r\n") || text.contains("}") {
            break
        }
    }
    return String(decoding: received, as: UTF8.self)
}

/// A plain TCP connection to loopback, for clients that misbehave on purpose.
public final class RawConnection: @unchecked Sendable {
    public let fd: Int32

    public init(port: Int, receiveTimeoutSeconds: Int = 30) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // No close here: `fd` is set, so a throw from here on still runs deinit, which closes it (twice would
        // close whatever another test opened under the same number meanwhile).
        guard connected == 0 else { throw TestFailure("connect failed: errno \(errno)") }
    }

    deinit { close(fd) }

    /// Makes the close a reset (RST) rather than an orderly FIN, as a client killed mid-request does; the
    /// connection closes when it is released.
    public func reset() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Sends `text`; false once the server has closed the connection.
    @discardableResult
    public func write(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Reads one bodiless response's head (up to the blank line), or what arrived before a close or timeout,
    /// on a thread of its own.
    public func readResponse() async -> String {
        await blockingCall { $0.blockingReadResponse() }
    }

    /// Reads until the server closes the connection (true) or the receive timeout passes (false), on a
    /// thread of its own.
    public func waitForClose() async -> Bool {
        await blockingCall { $0.blockingWaitForClose() }
    }

    private func blockingCall<Value: Sendable>(_ work: @escaping @Sendable (RawConnection) -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work(self)) }.start()
        }
    }

    /// ``readResponse()`` on the calling thread, for a client loop that runs on a thread of its own.
    public func blockingReadResponse() -> String {
        var received: [UInt8] = []
        var byte: UInt8 = 0
        while !received.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)), recv(fd, &byte, 1, 0) == 1 {
            received.append(byte)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// ``waitForClose()`` on the calling thread, for a client loop that runs on a thread of its own.
    public func blockingWaitForClose() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }
}

/// A free loopback TCP port (bound, read, released).
public func freeLoopbackPort() throws -> Int {
    let (fd, port) = try boundLoopbackSocket()
    close(fd)
    return port
}

/// A loopback port that refuses every connection for the life of the test process: bound and never listening,
/// so no server started by a test running in parallel can take it. A port found free and closed again (as
/// ``freeLoopbackPort()`` gives) was taken by another test's collector, which then received the events of a
/// client meant to be offline.
public let refusingLoopbackPort: Int = {
    guard let (_, port) = try? boundLoopbackSocket() else { fatalError("no loopback port could be bound") }
    return port
}()

/// A TCP socket bound to a free loopback port, listening when asked: a peer that takes connections and
/// never answers. The caller closes `fd`.
public func boundLoopbackSocket(listening: Bool = false) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket failed: errno \(errno)") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    guard bound == 0, !listening || listen(fd, 16) == 0 else {
        close(fd)
        throw TestFailure("bind or listen failed: errno \(errno)")
    }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

extension RawConnection {
    /// Sends `bytes` in pieces ending at each of `cuts` (offsets into `bytes`), each piece its own `send` with
    /// Nagle's delay off and a pause after it, so the server reads each piece apart as a slow network delivers
    /// them; false once the server has closed the connection.
    public func blockingWrite(_ bytes: [UInt8], cuts: [Int], pauseMicroseconds: UInt32 = 2_000) -> Bool {
        var noDelay: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var start = 0
        for end in cuts.filter({ $0 > 0 && $0 < bytes.count }) + [bytes.count] where end > start {
            let sent = bytes[start..<end].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent == end - start else { return false }
            start = end
            if end < bytes.count { usleep(pauseMicroseconds) }
        }
        return true
    }

    /// Reads `count` whole responses (each head, then its `Content-Length` body) on the calling thread, or as
    /// many as arrive before a close or the receive timeout. Each is its status code and body.
    public func blockingReadResponses(_ count: Int) -> [(status: Int, body: String)] {
        var received: [UInt8] = []
        var responses: [(status: Int, body: String)] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let separator = Array("\r\n\r\n".utf8)
        while responses.count < count {
            // Every whole response already in `received`.
            while let headEnd = received.firstRange(of: separator)?.upperBound {
                let head = String(decoding: received[..<headEnd], as: UTF8.self)
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                guard received.count >= headEnd + length else { break }
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                responses.append((status, String(decoding: received[headEnd..<(headEnd + length)], as: UTF8.self)))
                received.removeFirst(headEnd + length)
                if responses.count == count { return responses }
            }
            let read = recv(fd, &buffer, buffer.count, 0)
            if read < 0, errno == EINTR { continue }
            if read <= 0 { return responses }
            received += buffer[0..<read]
        }
        return responses
    }
}
