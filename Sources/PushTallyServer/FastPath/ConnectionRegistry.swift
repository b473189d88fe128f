import Foundation
import HummingbirdCore
import NIOCore

/// Every open connection, so that at `--max-connections` a new one closes the connection idle the longest
/// instead of waiting for it to time out, as nginx reuses its keep-alive connections: idle sockets cannot
/// starve a receipt.
///
/// Idle means between requests, or connected with no request yet. When none is idle, the connection whose
/// request arrives slowest is closed, if it arrives slower than ``slowBytesPerSecond`` on average: clients that
/// trickle their bodies just above the minimum rate cannot hold every slot. A connection whose request is being
/// answered, or arriving faster, is never chosen. Each connection's
/// ``IngestFastPath`` registers itself when it opens and leaves when it closes; the lock is taken for those and
/// for an eviction only. Idleness itself is read from each handler's clock on its own event loop when an
/// eviction looks for a connection, so requests cost nothing here.
final class ConnectionRegistry: @unchecked Sendable {
    /// A connection idle for less than this is never closed: a client that just connected, or just got its
    /// answer, gets a moment to send its request.
    static let grace = TimeAmount.milliseconds(200)
    /// A request arriving slower than this on average (after ``grace``) may be closed for a new connection when
    /// none is idle: far below any phone link, far above a client that trickles its body.
    static let slowBytesPerSecond: Double = 8 * 1024
    /// How soon to look again when every connection is busy and a new one waits.
    static let retryDelay = TimeAmount.milliseconds(50)

    private struct Loop {
        let loop: any EventLoop
        var handlers: [ObjectIdentifier: NIOLoopBound<IngestFastPath>] = [:]
    }

    private let lock = NSLock()
    /// Open connections by event loop, so an eviction asks each loop once about all of its connections.
    private var loops: [ObjectIdentifier: Loop] = [:]
    /// The listener waits for a free slot (``evictForWaitingListener()`` until ``listenerResumed()``).
    private var listenerWaits = false
    private var evicting = false
    /// Where to look again from when no connection has registered yet (they register as they become active).
    private var someLoop: (any EventLoop)?

    func register(_ handler: NIOLoopBound<IngestFastPath>) {
        let key = ObjectIdentifier(handler.eventLoop)
        lock.withLock {
            loops[key, default: Loop(loop: handler.eventLoop)].handlers[ObjectIdentifier(handler.value)] = handler
            if someLoop == nil { someLoop = handler.eventLoop }
        }
    }

    /// Called on the handler's event loop (it reads the handler's identity there).
    func unregister(_ handler: IngestFastPath, on loop: any EventLoop) {
        let key = ObjectIdentifier(loop)
        lock.withLock { _ = loops[key]?.handlers.removeValue(forKey: ObjectIdentifier(handler)) }
    }

    /// The listener is at its limit and a connection may be waiting: close the connection idle the longest (or,
    /// with none idle, the slowest request), and keep looking while every connection is busy, until
    /// ``listenerResumed()``.
    func evictForWaitingListener() {
        let start = lock.withLock {
            listenerWaits = true
            defer { evicting = true }
            return !evicting
        }
        if start { evictOne() }
    }

    /// A connection closed and the listener accepts again.
    func listenerResumed() {
        lock.withLock { listenerWaits = false }
    }

    /// Closes one connection: the one idle the longest, else the one whose request arrives slowest.
    private func evictOne() {
        let (snapshot, someLoop) = lock.withLock { (Array(loops.values), self.someLoop) }
        guard let anyLoop = snapshot.first?.loop else { return finishEviction(closed: false, retryOn: someLoop) }
        // Each loop names its connection idle the longest and its slowest request, read from the handlers' clocks
        // on that loop.
        let candidates = snapshot.map { entry in
            entry.loop.submit { () -> LoopCandidates in
                let now = NIODeadline.now()
                let cutoff = now - Self.grace
                var found = LoopCandidates()
                for handler in entry.handlers.values {
                    if let since = handler.value.idleSince {
                        if since <= cutoff, found.idle == nil || since < found.idle!.since { found.idle = (since, handler) }
                    } else if let arrival = handler.value.requestArrival(now: now), arrival.began <= cutoff,
                        arrival.bytesPerSecond < Self.slowBytesPerSecond,
                        found.slow == nil || arrival.bytesPerSecond < found.slow!.bytesPerSecond
                    {
                        found.slow = (arrival.began, arrival.bytesPerSecond, handler)
                    }
                }
                return found
            }
        }
        EventLoopFuture.whenAllSucceed(candidates, on: anyLoop).whenComplete { result in
            let found = (try? result.get()) ?? []
            if let idle = found.compactMap(\.idle).min(by: { $0.since < $1.since }) {
                return idle.handler.eventLoop.execute {
                    // It may have started a request meanwhile: then look again.
                    let closed = idle.handler.value.evict(ifIdleSince: idle.since)
                    self.finishEviction(closed: closed, retryOn: anyLoop)
                }
            }
            guard let slow = found.compactMap(\.slow).min(by: { $0.bytesPerSecond < $1.bytesPerSecond }) else {
                return self.finishEviction(closed: false, retryOn: anyLoop)
            }
            slow.handler.eventLoop.execute {
                // Its request may have ended meanwhile: then look again.
                let closed = slow.handler.value.evict(ifRequestBegan: slow.began)
                self.finishEviction(closed: closed, retryOn: anyLoop)
            }
        }
    }

    /// What one event loop offers for eviction: its connection idle the longest, and its slowest request.
    private struct LoopCandidates: Sendable {
        var idle: (since: NIODeadline, handler: NIOLoopBound<IngestFastPath>)?
        var slow: (began: NIODeadline, bytesPerSecond: Double, handler: NIOLoopBound<IngestFastPath>)?
    }

    /// Once a connection was closed, the listener resumes when it is gone; otherwise look again while it waits.
    private func finishEviction(closed: Bool, retryOn loop: (any EventLoop)?) {
        let again = lock.withLock {
            evicting = !closed && listenerWaits && loop != nil
            return evicting
        }
        guard again, let loop else { return }
        loop.scheduleTask(in: Self.retryDelay) {
            let waits = self.lock.withLock {
                if !self.listenerWaits { self.evicting = false }
                return self.listenerWaits
            }
            if waits { self.evictOne() }
        }
    }
}

/// Hummingbird's connection limit (``HummingbirdCore/AvailableConnectionsDelegate``), with eviction: past
/// `maximum` open connections the listener stops accepting and ``ConnectionRegistry`` closes the connection idle
/// the longest, or the slowest request; the listener resumes as soon as it is gone.
struct EvictingConnectionLimit: AvailableConnectionsDelegate {
    let maximum: Int
    let registry: ConnectionRegistry
    private var open = 0

    init(maximum: Int, registry: ConnectionRegistry) {
        self.maximum = maximum
        self.registry = registry
    }

    mutating func connectionOpened() {
        open += 1
    }

    mutating func connectionClosed() {
        open -= 1
        if open < maximum { registry.listenerResumed() }
    }

    func isAcceptingNewConnections() -> Bool {
        guard open >= maximum else { return true }
        registry.evictForWaitingListener()
        return false
    }
}
