/// When a failed delivery is tried again: exponential backoff with jitter, for at least the retry window.
public struct WebhookRetryPolicy: Sendable, Hashable {
    /// The delay after the first failure; each later one doubles it, up to ``maximumDelayMillis``.
    public var baseDelayMillis: Int64
    public var maximumDelayMillis: Int64
    /// How long a message is retried, counted from its first attempt; a message still failing then is given
    /// up and its endpoint marked failing.
    public var windowMillis: Int64

    public init(baseDelayMillis: Int64 = 5_000, maximumDelayMillis: Int64 = 3_600_000, windowMillis: Int64 = 86_400_000) {
        self.baseDelayMillis = max(1, baseDelayMillis)
        self.maximumDelayMillis = max(self.baseDelayMillis, maximumDelayMillis)
        self.windowMillis = windowMillis
    }

    /// The delay before attempt `attempts + 1`, after `attempts` failures: the exponential step with the
    /// upper half jittered, so receivers coming back are not hit by every queued message at once.
    public func delayMillis(afterFailures attempts: Int, random: Double = Double.random(in: 0..<1)) -> Int64 {
        let exponent = min(max(attempts - 1, 0), 40)
        let step = min(Double(baseDelayMillis) * Double(sign: .plus, exponent: exponent, significand: 1), Double(maximumDelayMillis))
        return Int64(step / 2 + step / 2 * random)
    }

    /// What happens after a failed attempt at `now`, for a message first attempted at `firstAttemptMillis`:
    /// the next attempt time, or `nil` when the window is over (a last attempt is always made at its end).
    public func nextAttempt(afterFailures attempts: Int, firstAttemptMillis: Int64, now: Int64) -> Int64? {
        let deadline = firstAttemptMillis + windowMillis
        guard now < deadline else { return nil }
        return min(now + delayMillis(afterFailures: attempts), deadline)
    }
}

/// How one attempt ended, as the dispatcher saw it.
public enum WebhookAttemptResult: Sendable, Hashable {
    /// A 2xx answer.
    case delivered(status: Int)
    /// `410 Gone`: the receiver asks never to be sent to again.
    case gone
    /// Any other answer, a timeout, a refused connection or an address no longer allowed.
    case failed(status: Int?, error: String)
}

/// A delivery's state as listed by `GET /v1/webhooks/{id}/deliveries`.
public enum WebhookDeliveryStatus: String, Sendable, Hashable, Codable {
    /// Not yet delivered: waiting for its first attempt or a retry.
    case pending
    case delivered
    /// Given up after the retry window, or its endpoint answered 410.
    case failed
}

extension WebhookDeliveryStatus {
    /// The deliveries listing's `status` filter, as the route's query and the CLI's `--status` give it.
    /// - Throws: ``FieldError`` `bad_value` for any other word.
    public init(parsing text: String) throws(FieldError) {
        guard let status = Self(rawValue: text) else {
            throw FieldError("bad_value", "status must be pending, delivered or failed", field: "status")
        }
        self = status
    }
}

/// One message's delivery to one endpoint.
public struct WebhookDelivery: Sendable, Hashable {
    public var messageID: String
    public var endpointID: String
    public var type: WebhookEventType
    public var status: WebhookDeliveryStatus
    public var attempts: Int
    public var lastHTTPStatus: Int?
    public var lastError: String?
    public var createdAtMillis: Int64
    public var lastAttemptMillis: Int64?
    /// `nil` once delivered or failed.
    public var nextAttemptMillis: Int64?
    public var deliveredAtMillis: Int64?

    public init(
        messageID: String, endpointID: String, type: WebhookEventType, status: WebhookDeliveryStatus, attempts: Int,
        lastHTTPStatus: Int?, lastError: String?, createdAtMillis: Int64, lastAttemptMillis: Int64?,
        nextAttemptMillis: Int64?, deliveredAtMillis: Int64?
    ) {
        self.messageID = messageID
        self.endpointID = endpointID
        self.type = type
        self.status = status
        self.attempts = attempts
        self.lastHTTPStatus = lastHTTPStatus
        self.lastError = lastError
        self.createdAtMillis = createdAtMillis
        self.lastAttemptMillis = lastAttemptMillis
        self.nextAttemptMillis = nextAttemptMillis
        self.deliveredAtMillis = deliveredAtMillis
    }
}

/// A delivery claimed for an attempt: everything the dispatcher needs to send and sign it.
public struct ClaimedDelivery: Sendable, Hashable {
    public var messageID: String
    public var endpointID: String
    public var url: String
    public var secret: String
    public var body: String
    /// Failed attempts so far.
    public var attempts: Int
    public var firstAttemptMillis: Int64?
    /// The lease this claim holds: an outcome is stored only while the delivery still carries it, so a
    /// replay (or a claim after the lease ran out) made meanwhile is not overwritten by a stale result.
    public var leasedUntilMillis: Int64

    public init(
        messageID: String, endpointID: String, url: String, secret: String, body: String, attempts: Int,
        firstAttemptMillis: Int64?, leasedUntilMillis: Int64
    ) {
        self.messageID = messageID
        self.endpointID = endpointID
        self.url = url
        self.secret = secret
        self.body = body
        self.attempts = attempts
        self.firstAttemptMillis = firstAttemptMillis
        self.leasedUntilMillis = leasedUntilMillis
    }
}

/// What an attempt's result writes: the one rule both engines store.
public struct DeliveryUpdate: Sendable, Hashable {
    public var status: WebhookDeliveryStatus
    public var httpStatus: Int?
    public var error: String?
    public var nextAttemptMillis: Int64?
    public var firstAttemptMillis: Int64
    /// The endpoint's new status, when this attempt changes it.
    public var endpointStatus: WebhookEndpointStatus?

    /// The update for `result` of an attempt at `now` on `delivery`.
    public init(_ result: WebhookAttemptResult, of delivery: ClaimedDelivery, at now: Int64, policy: WebhookRetryPolicy) {
        firstAttemptMillis = delivery.firstAttemptMillis ?? now
        switch result {
        case .delivered(let status):
            self.status = .delivered
            httpStatus = status
            endpointStatus = .active
        case .gone:
            self.status = .failed
            httpStatus = 410
            error = "410 Gone: endpoint disabled"
            endpointStatus = .disabled
        case .failed(let status, let error):
            httpStatus = status
            self.error = String(error.prefix(500))
            if let next = policy.nextAttempt(afterFailures: delivery.attempts + 1, firstAttemptMillis: firstAttemptMillis, now: now) {
                self.status = .pending
                nextAttemptMillis = next
            } else {
                self.status = .failed
                endpointStatus = .failing
            }
        }
    }
}
