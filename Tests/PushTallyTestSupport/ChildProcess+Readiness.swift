import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// CPU time the child and the children it waited for have used so far (`/proc/PID/stat`), or `nil` once it
    /// is gone: what tells a helper that is slow because the machine is busy from one that is stuck.
    public var cpuTime: Duration? {
        let pid = processIdentifier
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        // The command name (field 2) may hold spaces and parentheses: the fields counted here follow its last ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // utime, stime, cutime, cstime are fields 14 to 17 of the line, 12 to 15 after the name.
        guard fields.count > 14 else { return nil }
        let ticks = fields[11...14].compactMap { Int($0) }.reduce(0, +)
        let perSecond = max(1, sysconf(Int32(_SC_CLK_TCK)))
        return .milliseconds(ticks * 1000 / perSecond)
    }

    /// Waits until `ready` holds, for as long as the child lives and makes progress: it fails when the child
    /// exits first, or when it has used no CPU time for `quietLimit` (a stuck start-up, not a slow machine:
    /// a starved process still gets some CPU). `describe` says what the child printed, for the failure.
    ///
    /// No fixed deadline: on a machine busy with the suite's own load, a Python or PostgreSQL start-up may take
    /// far longer than it does alone, and that is no fault of the code under test.
    public func waitUntilReady(
        _ what: String, quietLimit: Duration = .seconds(120), describe: () -> String = { "" },
        _ ready: () async throws -> Bool
    ) async throws {
        var lastCPU = cpuTime
        var lastProgress = ContinuousClock.now
        while try await !ready() {
            guard isRunning else {
                // It may have become ready just before it exited.
                if try await ready() { return }
                throw TestFailure("\(what) exited (status \(terminationStatus)) before it was ready; it printed: \(describe())")
            }
            let cpu = cpuTime
            if cpu != lastCPU {
                lastCPU = cpu
                lastProgress = .now
            } else if ContinuousClock.now - lastProgress > quietLimit {
                throw TestFailure("\(what) used no CPU for \(quietLimit) and is still not ready; it printed: \(describe())")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
