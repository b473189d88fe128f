import Foundation

/// When to try the collector again after a failure: exponential, capped, with jitter so that a fleet of
/// phones coming back online does not retry in lockstep.
struct Backoff: Codable, Equatable, Sendable {
    var consecutiveFailures = 0
    /// Seconds since 1970 before which no send is attempted.
    var notBefore: Double = 0

    mutating func recordSuccess() {
        consecutiveFailures = 0
        notBefore = 0
    }

    /// Schedules the next attempt: base * 2^failures (capped), times a random factor in [0.5, 1], and never
    /// sooner than the server's `Retry-After`.
    mutating func recordFailure(now: Double, base: Double, cap: Double, retryAfter: Double?, jitter: Double = Double.random(in: 0.5...1)) {
        consecutiveFailures += 1
        let exponential = min(cap, base * pow(2, Double(consecutiveFailures - 1)))
        notBefore = now + max(exponential * jitter, retryAfter ?? 0)
    }
}

/// What the client keeps between runs and processes, beside the outbox.
struct ClientState: Codable, Equatable, Sendable {
    var backoff = Backoff()
    /// Events deleted unsent because the outbox was full or they were too old.
    var dropped = 0
    /// Events the collector refused outright (a 4xx for that event): sending again would not help.
    var rejected = 0
}
