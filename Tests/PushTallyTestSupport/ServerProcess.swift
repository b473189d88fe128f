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
    candidates.append(PackageRoot.file(".build/debug/pushtally"))
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

/// Which store deadlines a test's `pushtally serve` runs with.
public enum ServerDeadlines: Sendable {
    /// `serve`'s own defaults: for the tests about them (a frozen, locked or stopped database answered 503 in
    /// seconds).
    case production
    /// Deadlines a busy machine cannot trip (a commit 5 minutes, other store work 10 minutes), through
    /// `PUSHTALLY_COMMIT_TIMEOUT` and `PUSHTALLY_STORE_TIMEOUT`, which flags still override: for every test
    /// that is not about them, so the suite's own load on two cores never turns into a 503.
    case patient

    /// The variables a `pushtally` process gets for these deadlines.
    public var environment: [String: String] {
        switch self {
        case .production: [:]
        case .patient: ["PUSHTALLY_COMMIT_TIMEOUT": "5m", "PUSHTALLY_STORE_TIMEOUT": "10m"]
        }
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
    /// - Parameter deadlines: ``ServerDeadlines/patient`` unless the test is about the deadlines themselves.
    /// - Parameter environment: variables set for the server beside the inherited ones.
    public init(
        directory: URL? = nil, database: String? = nil, extraArguments: [String] = [], deadlines: ServerDeadlines = .patient,
        environment: [String: String] = [:]
    ) throws {
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-proc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.databasePath = database ?? directory.appendingPathComponent("pushtally.sqlite").path
        process.executableURL = try pushtallyBinary()
        process.arguments = ["serve", "--port", "0", "--database", databasePath, "--log-level", "warning"] + extraArguments
        process.environment = ProcessInfo.processInfo.environment.merging(deadlines.environment) { inherited, _ in inherited }
            .merging(environment) { _, set in set }
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
    // Past the patient servers' own deadlines (``ServerDeadlines/patient``: 10 minutes): URLSession's default of
    // 60 s without a byte is a deadline a crowded machine trips on a debug build's large request.
    request.timeoutInterval = 660
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await URLSession.shared.data(for: request)
    let http = response as! HTTPURLResponse
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields {
        fields[String(describing: name).lowercased()] = String(describing: value)
    }
    return (http.statusCode, data, fields)
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
