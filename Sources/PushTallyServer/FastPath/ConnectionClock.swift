import NIOCore

/// The idle and slow-client timeouts of one connection, with no I/O: when to close and when to look again.
///
/// - Between requests, a connection is closed once nothing was read or answered for `idleTimeout`, unless the
///   server itself is working on a request that has fully arrived (a long commit is not the client's idleness).
/// - A request in progress must keep arriving at ``Limits/minimumBytesPerSecond`` on average after a grace of
///   `idleTimeout`: a client that trickles a body a byte at a time (slowloris) is closed, while a large batch on
///   a slow mobile link is not. Headers that never complete count as idleness (the decoder has produced nothing
///   yet), so they are closed after `idleTimeout` too.
/// - A request must arrive whole within ``Limits/requestTimeout`` of its head, however steadily it trickles:
///   a client just above the minimum rate cannot hold a connection for as long as its body lasts.
struct ConnectionClock {
    enum Decision: Equatable {
        case close
        case checkAgain(NIODeadline)
    }

    /// What a connection may take (`serve --idle-timeout`, `--min-body-rate`, `--body-timeout`).
    struct Limits: Equatable, Sendable {
        var idleTimeout: TimeAmount
        /// Apache's `mod_reqtimeout` default: 500 bytes a second keeps a request alive.
        var minimumBytesPerSecond: Int64 = 500
        /// The most a request may take from its head to its last byte.
        var requestTimeout: TimeAmount = .seconds(60)
    }

    let limits: Limits
    var idleTimeout: TimeAmount { limits.idleTimeout }
    private(set) var lastActivity: NIODeadline
    /// When the request being read began, and how many body bytes arrived since.
    private(set) var request: (began: NIODeadline, bytes: Int64)?

    init(limits: Limits, now: NIODeadline) {
        self.limits = limits
        self.lastActivity = now
    }

    init(idleTimeout: TimeAmount, now: NIODeadline) {
        self.init(limits: Limits(idleTimeout: idleTimeout), now: now)
    }

    /// When the connection is due to close if nothing more arrives.
    var deadline: NIODeadline {
        let idle = lastActivity + idleTimeout
        guard let request else { return idle }
        let earned = TimeAmount.nanoseconds(request.bytes * 1_000_000_000 / max(1, limits.minimumBytesPerSecond))
        return min(idle, request.began + idleTimeout + earned, request.began + limits.requestTimeout)
    }

    /// The average rate the request being read arrives at, in bytes a second since its head; `nil` between
    /// requests.
    func arrivalRate(now: NIODeadline) -> Double? {
        guard let request else { return nil }
        let seconds = max(0.001, Double((now - request.began).nanoseconds) / 1e9)
        return Double(request.bytes) / seconds
    }

    /// An answer was written, or the connection opened.
    mutating func touch(now: NIODeadline) {
        lastActivity = now
    }

    /// A request's head arrived.
    mutating func requestBegan(now: NIODeadline) {
        request = (now, 0)
        lastActivity = now
    }

    /// Part of a request's body arrived.
    mutating func received(bytes: Int, now: NIODeadline) {
        request?.bytes += Int64(bytes)
        lastActivity = now
    }

    /// The request arrived whole.
    mutating func requestEnded(now: NIODeadline) {
        request = nil
        lastActivity = now
    }

    func check(now: NIODeadline, waitingForServer: Bool) -> Decision {
        if request == nil, waitingForServer { return .checkAgain(now + idleTimeout) }
        return now >= deadline ? .close : .checkAgain(deadline)
    }
}
