import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory lock on a file (`flock`), shared by every process using the same store directory: the
/// extension and the app. The kernel releases it if the holder dies, so a crash never wedges the outbox.
final class FileLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock, waiting (polling) until `deadline`; `nil` if it stayed taken. The poll sleeps as a task
    /// (`flock` has no way to be woken asynchronously, and a blocking `flock` could not keep the deadline), so
    /// a wait for another process's flush holds no thread.
    static func acquire(path: String, until deadline: Date) async -> FileLock? {
        let descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        guard descriptor >= 0 else { return nil }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard Date() < deadline else {
                close(descriptor)
                return nil
            }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return FileLock(descriptor: descriptor)
    }

    /// Gives the lock up. Callers release explicitly (in a `defer`): an unused local may be freed before
    /// the end of its scope, which would let another process in early.
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
