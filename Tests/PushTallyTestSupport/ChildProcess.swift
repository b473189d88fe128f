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

    // Guards `pid`, `status` and `waiters`; signalled when the child has exited.
    private let exited = NSCondition()
    private var pid: pid_t = 0
    private var status: Int32?
    private var waiters: [@Sendable () -> Void] = []

    public init() {}

    public var processIdentifier: Int32 { exited.withLock { pid } }

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
        exited.withLock { pid = child }
        for end in childEnds { try? end.close() }
        startReaper(child)
    }

    /// Waits for the child on a thread of its own: `waitpid` blocks, and a test waiting on the cooperative
    /// pool would hold one of its few threads (two on two cores) from the servers and clients under test.
    private func startReaper(_ child: pid_t) {
        let reaper = Thread { [self] in
            var raw: Int32 = 0
            while waitpid(child, &raw, 0) == -1, errno == EINTR {}
            exited.lock()
            status = raw
            let resumed = waiters
            waiters = []
            exited.broadcast()
            exited.unlock()
            for waiter in resumed { waiter() }
        }
        reaper.name = "child-reaper-\(child)"
        reaper.stackSize = 64 << 10
        reaper.start()
    }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { exited.withLock { pid > 0 && status == nil } }

    /// Suspends (without holding a thread) until the child exits; at once if it never started.
    public func waitUntilExit() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            onExit { continuation.resume() }
        }
    }

    /// Suspends until the child exits or `timeout` passes; whether it exited. The timer is Dispatch's, so a
    /// busy cooperative pool cannot stretch it.
    public func waitUntilExit(timeout: Duration) async -> Bool {
        let once = OnceFlag()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if once.claim() { continuation.resume(returning: false) }
            }
            onExit { if once.claim() { continuation.resume(returning: true) } }
        }
    }

    /// Runs `action` once the child has exited (at once if it has, or never started).
    private func onExit(_ action: @escaping @Sendable () -> Void) {
        exited.lock()
        guard pid > 0, status == nil else {
            exited.unlock()
            return action()
        }
        waiters.append(action)
        exited.unlock()
    }

    /// Blocks the calling thread until the child exits: only for threads of their own (see ``blocking(_:)``).
    public func blockUntilExit() {
        exited.lock()
        while pid > 0, status == nil { exited.wait() }
        exited.unlock()
    }

    /// The exit code, or the number of the signal that ended the child (as `Foundation.Process` gives it).
    public var terminationStatus: Int32 {
        guard let raw = exited.withLock({ status }) else { return 0 }
        return exitedNormally(raw) ? (raw >> 8) & 0xff : raw & 0x7f
    }

    public var terminationReason: Process.TerminationReason {
        guard let raw = exited.withLock({ status }) else { return .exit }
        return exitedNormally(raw) ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM.
    public func terminate() { send(SIGTERM) }

    /// Sends `signal` while the child runs: never to a pid that was reaped (and may be another process's now),
    /// nor to 0 (the whole process group) before it started.
    public func send(_ signal: Int32) {
        exited.withLock {
            if pid > 0, status == nil { kill(pid, signal) }
        }
    }

    private func exitedNormally(_ raw: Int32) -> Bool { raw & 0x7f == 0 }

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

/// True for the first caller of ``claim()`` only: whichever of two racing events comes first wins.
public final class OnceFlag: @unchecked Sendable {
    // Guards `claimed`.
    private let lock = NSLock()
    private var claimed = false

    public init() {}

    public func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
