/// Webhook endpoints and their outbox. Messages are queued by the transactions that store what they carry
/// (ingest, registration, alert transitions: see ``Outbox``); this role manages endpoints and delivers.
public protocol WebhookStore: Sendable {
    /// Stores a new endpoint with its signing secret (`whsec_...`).
    func createWebhook(_ endpoint: WebhookEndpoint, secret: String) async throws
    /// Every endpoint, oldest first, without secrets.
    func webhooks() async throws -> [WebhookEndpoint]
    /// Deletes an endpoint and its pending deliveries; false when there was none.
    func deleteWebhook(id: String) async throws -> Bool
    /// An endpoint's deliveries, newest first, at most `limit`.
    func deliveries(webhookID: String, status: WebhookDeliveryStatus?, limit: Int) async throws -> [WebhookDelivery]
    /// Queues again every retained message of the endpoint created at or after `sinceMillis`, keeping each
    /// message's id; returns how many.
    func replay(webhookID: String, sinceMillis: Int64, now: Int64) async throws -> Int
    /// Packs waiting receipts and taps into messages once the oldest has waited `fillMillis` or a full batch
    /// is waiting; returns the deliveries queued. Several collectors never pack the same row.
    func packOutbox(now: Int64, fillMillis: Int64) async throws -> Int
    /// Claims up to `limit` deliveries due at `now` for `leaseMillis` (another collector skips them meanwhile;
    /// when this one dies, they are due again once the lease is over).
    func claimDeliveries(now: Int64, leaseMillis: Int64, limit: Int) async throws -> [ClaimedDelivery]
    /// Stores attempts' outcomes and, when they change it, their endpoints' status: one transaction for
    /// all, so a busy dispatcher costs the database one commit per round, not one per message.
    func recordAttempts(_ attempts: [RecordedAttempt]) async throws
    /// Deletes delivered and failed deliveries older than the cutoff, and the messages nobody still needs.
    @discardableResult
    func pruneDeliveries(createdBefore cutoffMillis: Int64) async throws -> Int
    /// Deliveries not yet delivered (to endpoints not disabled), and the creation time of the oldest.
    func undelivered() async throws -> (count: Int, oldestMillis: Int64?)
}

extension WebhookStore {
    /// Stores one attempt's outcome (``recordAttempts(_:)`` for one).
    public func recordAttempt(_ delivery: ClaimedDelivery, update: DeliveryUpdate, at now: Int64) async throws {
        try await recordAttempts([RecordedAttempt(delivery: delivery, update: update, at: now)])
    }
}

/// An attempt to store: the delivery, what its result writes, and when it was made.
public struct RecordedAttempt: Sendable, Hashable {
    public var delivery: ClaimedDelivery
    public var update: DeliveryUpdate
    public var atMillis: Int64

    public init(delivery: ClaimedDelivery, update: DeliveryUpdate, at millis: Int64) {
        self.delivery = delivery
        self.update = update
        self.atMillis = millis
    }
}
