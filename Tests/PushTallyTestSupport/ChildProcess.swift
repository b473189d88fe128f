import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, with the part of `Foundation.Process`'s interface the tests use.
///
/// Why not `Foundation.Process`: on Linux its `run()` walks `/proc/self/fd` with a struct copy of each
/// `dirent` that reads 256 bytes past short records, and crashes (SIGSEGV in `memcpy`) when the test process
/// has enough descriptors open for a record to end its buffer (swift-corelibs-foundation#5472, fixed after
/// Swift 6.3.1). Parallel suites with live servers open about 2,000 at their peak, and CI crashed on it.
/// `swift-subprocess` avoids the walk but is async and scoped to a closure, which does not fit a server that
/// outlives the call that starts it. Here the child closes every descriptor above 2 by `closefrom`, in glibc.
public final class ChildProcess: @unchecked Sendable {
    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's whole environment; `nil` inherits this process's.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// Each a `Pipe` or a `FileHandle`; `nil` inherits this process's.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    private let lock = NSLock()
    private var pid: pid_t = 0
    private var status: Int32?

    public init() {}

    public var processIdentifier: Int32 { lock.withLock { pid } }

    /// Starts the child; the parent's copies of the pipe ends the child uses are closed, so reading to the end
    /// of an output pipe ends when the child (and whatever it started) closes it.
    public func run() throws {
        guard let executable = executableURL?.path else { throw TestFailure("ChildProcess: no executableURL") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [FileHandle] = []
        for (target, stream, reads) in [(Int32(0), standardInput, true), (1, standardOutput, false), (2, standardError, false)] {
            let handle: FileHandle
            switch stream {
            case let pipe as Pipe:
                handle = reads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                childEnds.append(handle)
            case let file as FileHandle: handle = file
            default: continue
            }
            if handle.fileDescriptor < 0 {
                // `FileHandle.nullDevice` has no descriptor of its own.
                try check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0), "open /dev/null")
            } else {
                try check(posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target), "dup2")
            }
        }
        if let directory = currentDirectoryURL?.path {
            try check(Self.addChdir(&actions, directory), "chdir")
        }
        try check(Self.addCloseFrom(&actions, 3), "closefrom")

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner's threads block signals; a child must start with none blocked and default handlers,
        // or SIGTERM would never reach it.
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = [executable] + arguments
        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        let result = withCStrings(argv) { argvPointers in
            withCStrings(env) { envPointers in
                posix_spawn(&child, executable, &actions, &attributes, argvPointers, envPointers)
            }
        }
        try check(result, "posix_spawn \(executable)")
        lock.withLock { pid = child }
        for end in childEnds { try? end.close() }
    }

    /// Whether the child has not exited yet (reaps it when it has).
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Blocks until the child exits.
    public func waitUntilExit() { _ = reap(blocking: true) }

    /// The exit code, or the number of the signal that ended the child (as `Foundation.Process` gives it).
    public var terminationStatus: Int32 {
        guard let raw = reap(blocking: false) else { return 0 }
        return exitedNormally(raw) ? (raw >> 8) & 0xff : raw & 0x7f
    }

    public var terminationReason: Process.TerminationReason {
        guard let raw = reap(blocking: false) else { return .exit }
        return exitedNormally(raw) ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM.
    public func terminate() { kill(processIdentifier, SIGTERM) }

    private func exitedNormally(_ raw: Int32) -> Bool { raw & 0x7f == 0 }

    /// The raw wait status once the child has exited. Only one caller reaps; a concurrent one that finds the
    /// child already reaped waits for the status to be recorded.
    private func reap(blocking: Bool) -> Int32? {
        let child: pid_t
        lock.lock()
        if let status { lock.unlock(); return status }
        child = pid
        lock.unlock()
        guard child > 0 else { return nil }
        while true {
            var raw: Int32 = 0
            let got = waitpid(child, &raw, blocking ? 0 : WNOHANG)
            if got == child {
                lock.withLock { status = raw }
                return raw
            }
            if got == -1, errno == EINTR { continue }
            if got == -1, errno == ECHILD {
                if let recorded = lock.withLock({ status }) { return recorded }
                usleep(1_000)
                continue
            }
            return nil
        }
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == 0 else { throw TestFailure("ChildProcess: \(what) failed: \(String(cString: strerror(code)))") }
    }

    // glibc (2.34+) has both, but Swift's Glibc module does not declare these GNU extensions.
    private typealias FileActionsInt = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias FileActionsPath = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private static let addCloseFrom: FileActionsInt = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")!, to: FileActionsInt.self)
    private static let addChdir: FileActionsPath = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np")!, to: FileActionsPath.self)
}

/// Calls `body` with a NULL-terminated C array of `strings`.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let pointers = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return body(pointers + [nil])
}
