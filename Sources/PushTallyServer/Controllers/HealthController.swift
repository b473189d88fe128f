import Hummingbird
import PushTallyCore

/// ``APIRoute/health``: 200 while the database takes writes and the writers' commit chains move, 503 with
/// `Retry-After` otherwise (for load balancers), its status saying which.
struct HealthController<Context: RequestContext>: Sendable {
    let store: any StoreLifecycle & EventIngestor

    struct Health: Encodable {
        /// `ok`, `unwritable` (the database refused or did not answer a write in time) or `writer_stalled`.
        let status: String
        let queued_events: Int
        /// Why the writer is reported stalled, when it is.
        let reason: String?
    }

    /// Seconds a load balancer or client should wait before asking again after a 503.
    static var retryAfterSeconds: Int { 5 }

    func register(on routes: RouteTable<Context>) {
        routes.on(.health) { _, _ in
            // The writer first: a stalled writer is unhealthy even while the database answers other writes, and
            // saying so needs no write (which would wait out the commit timeout on a database that stopped).
            let health: Health
            if case .stalled(let reason) = store.writerHealth {
                health = Health(status: "writer_stalled", queued_events: store.queuedEvents, reason: reason)
            } else if await store.isWritable() {
                return try .json(Health(status: "ok", queued_events: store.queuedEvents, reason: nil))
            } else {
                health = Health(status: "unwritable", queued_events: store.queuedEvents, reason: nil)
            }
            var response = try Response.json(health, status: .serviceUnavailable)
            response.headers[.retryAfter] = String(Self.retryAfterSeconds)
            return response
        }
    }
}
