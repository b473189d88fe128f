import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built `pushtally` executable: `$PUSHTALLY_BINARY`, or beside the test bundle in the build folder.
public func pushtallyBinary() throws -> URL {
    if let path = ProcessInfo.processInfo.environment["PUSHTALLY_BINARY"] {
        return URL(fileURLWithPath: path)
    }
    var candidates: [URL] = []
    if let executable = Bundle.main.executableURL {
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("pushtally"))
        candidates.append(executable.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("pushtally"))
    }
    for bundle in Bundle.allBundles {
        candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("pushtally"))
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(root.appendingPathComponent(".build/debug/pushtally"))
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw TestFailure("pushtally binary not found (run `swift build` first, or set PUSHTALLY_BINARY); looked in \(candidates.map(\.path))")
    }
    return found
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Output and exit status of a finished `pushtally` command.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs `pushtally ARGS...` to completion; the wait happens on a thread of its own.
public func runPushtally(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
    let executable = try pushtallyBinary()
    return try await blocking {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is drained beside standard output: a child that fills one pipe while the other is
        // read would otherwise never finish.
        let stderr = DrainedPipe(err)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.blockUntilExit()
        return CommandResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr.data(), as: UTF8.self))
    }
}

/// A pipe read to its end by a thread of its own.
final class DrainedPipe: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var read = Data()

    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            read = handle.readDataToEndOfFile()
            done.signal()
        }.start()
    }

    /// Everything the pipe carried; blocks until its writers closed it, so call it off the cooperative pool.
    func data() -> Data {
        done.wait()
        return read
    }
}

/// A real `pushtally serve` process on a free loopback port with its own database file.
public final class ServerProcess: @unchecked Sendable {
    public let process = ChildProcess()
    public let directory: URL
    public let databasePath: String
    public private(set) var port = 0
    public private(set) var adminToken = ""
    private let output = Pipe()

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// - Parameter database: what `--database` gets; a SQLite file in `directory` unless given.
    public init(directory: URL? = nil, database: String? = nil, extraArguments: [String] = []) throws {
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.databasePath = database ?? directory.appendingPathComponent("pushtally.sqlite").path
        process.executableURL = try pushtallyBinary()
        process.arguments = ["serve", "--port", "0", "--database", databasePath, "--log-level", "warning"] + extraArguments
        process.standardOutput = output
        let logPath = directory.appendingPathComponent("server.log").path
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: logPath)
    }

    /// What the server logged to stderr so far.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }

    /// Starts the server and waits (at most 60 s) for its "listening" line, reading it on a thread of its own.
    public func start() async throws {
        try await blocking { try self.startAndReadPort() }
    }

    private func startAndReadPort() throws {
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        var text = ""
        let handle = output.fileHandleForReading
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let token = text.firstMatch(of: /PUSHTALLY_TOKEN=(\S+)/) { adminToken = String(token.1) }
            if let match = text.firstMatch(of: /listening on https?:\/\/127\.0\.0\.1:(\d+)/) {
                port = Int(match.1)!
                return
            }
        }
        process.terminate()
        throw TestFailure("server did not start; it printed: \(text)")
    }

    /// Sends `signal` and waits (at most 60 s, a guard against hangs, not a timing check) for the exit status.
    public func stop(signal: Int32 = SIGTERM) async throws -> Int32 {
        process.send(signal)
        guard await process.waitUntilExit(timeout: .seconds(60)) else {
            process.send(SIGKILL)
            throw TestFailure("server did not exit within 60 s of signal \(signal)")
        }
        return process.terminationStatus
    }

    /// Kills the server if it still runs (its reaper collects it) and removes its folder.
    public func removeFiles() {
        process.send(SIGKILL)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One HTTP exchange with URLSession (libcurl underneath on Linux), as an iOS extension would make it.
public func httpRequest(
    _ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil
) async throws -> (status: Int, body: Data, headers: [String: String]) {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
        fields[String(describing: name).lowercased()] = String(describing: value)
    }
    return (http.statusCode, data, fields)
}

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

/// Runs a command, returning its exit status and standard output; with `includingErrors`, standard error goes
/// into the same output as it is written (for tools that report their failures there). The wait happens on a
/// thread of its own.
public func runProcess(
    _ executable: String, _ arguments: [String], includingErrors: Bool = false
) async throws -> (status: Int32, output: String) {
    try await blocking {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = includingErrors ? pipe : FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.blockUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// Runs blocking work (socket reads, waiting for a process) on a thread of its own and awaits it, so that it
/// never holds one of the few cooperative threads an in-process server under test needs to answer.
public func blocking<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
