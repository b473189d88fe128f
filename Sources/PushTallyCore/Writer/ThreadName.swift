import Foundation

/// Names the calling thread where operators look for it (`top -H`, `perf`, `/proc/PID/task/*/comm`): at most
/// 15 bytes, all that Linux keeps (a longer name is cut there).
///
/// Written to the thread's own `comm` file, from inside the thread: Foundation on Linux drops a `Thread.name`
/// given before `start()`, and one set from inside at once can run before the starting thread has registered
/// it, and is dropped too; Swift's Glibc module does not declare `pthread_setname_np`.
package func nameCurrentThread(_ name: String) {
    #if os(Linux)
    try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    #else
    Thread.current.name = name
    #endif
}
