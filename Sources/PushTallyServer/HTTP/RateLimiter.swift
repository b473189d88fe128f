import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A token bucket: `ratePerSecond` tokens a second, holding at most `burst`.
struct TokenBucket: Sendable, Equatable {
    var tokens: Double
    var updatedAt: Double

    /// Takes one token at time `now` (seconds); returns 0 if taken, else the seconds until one is free.
    mutating func take(now: Double, ratePerSecond: Double, burst: Double) -> Double {
        tokens = min(burst, tokens + max(0, now - updatedAt) * ratePerSecond)
        updatedAt = now
        if tokens >= 1 {
            tokens -= 1
            return 0
        }
        return (1 - tokens) / ratePerSecond
    }
}

/// Per-client-IP token buckets for ingest, with the client IP taken from a trusted proxy's header.
public final class RateLimiter: @unchecked Sendable {
    /// A sustained rate and the burst a client may send at once.
    public struct Limit: Sendable {
        public var ratePerSecond: Double
        public var burst: Double

        public init(ratePerSecond: Double, burst: Double) {
            self.ratePerSecond = ratePerSecond
            self.burst = burst
        }
    }

    let limit: Limit
    let trustedProxies: Set<String>
    private let lock = NSLock()
    private var buckets: [String: TokenBucket] = [:]
    /// Beyond this many tracked clients, full (idle) buckets are forgotten, bounding memory.
    private let maximumClients = 100_000

    init(limit: Limit, trustedProxies: Set<String>) {
        self.limit = limit
        self.trustedProxies = trustedProxies
    }

    /// Seconds until `client` may send again; 0 when the request may go ahead now.
    func retryAfter(client: String, now: Double = Date().timeIntervalSince1970) -> Double {
        lock.lock()
        defer { lock.unlock() }
        if buckets.count > maximumClients {
            buckets = buckets.filter { _, bucket in
                bucket.tokens + (now - bucket.updatedAt) * limit.ratePerSecond < limit.burst
            }
        }
        var bucket = buckets[client] ?? TokenBucket(tokens: limit.burst, updatedAt: now)
        let wait = bucket.take(now: now, ratePerSecond: limit.ratePerSecond, burst: limit.burst)
        buckets[client] = bucket
        return wait
    }

    /// The client's IP: the TCP peer, unless that peer is a trusted proxy, in which case the right-most
    /// address of `X-Forwarded-For` that is not itself a trusted proxy.
    func clientIP(peer: String?, forwardedFor: String?) -> String {
        guard let peer else { return "unknown" }
        guard trustedProxies.contains(peer), let forwardedFor else { return peer }
        let hops = forwardedFor.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? peer
    }
}

extension RateLimiter {
    /// Throws `429 Too Many Requests` with `Retry-After` when the request's client is over its rate.
    func check(headers: HTTPFields, peer: SocketAddress?) throws {
        let client = clientIP(peer: peer?.ipAddress, forwardedFor: headers[.xForwardedFor])
        let wait = retryAfter(client: client)
        guard wait == 0 else {
            throw APIError(
                .tooManyRequests, "rate_limited", "too many requests from this client; retry later",
                headers: [.retryAfter: String(Int(wait.rounded(.up)))])
        }
    }
}

extension HTTPField.Name {
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}
