import Hummingbird
import PushTallyCore

/// ``APIRoute/health``: 200 while the database takes writes, 503 otherwise (for load balancers).
struct HealthController<Context: RequestContext>: Sendable {
    let store: any StoreLifecycle & EventIngestor

    struct Health: Encodable {
        let status: String
        let queued_events: Int
    }

    func register(on routes: RouteTable<Context>) {
        routes.on(.health) { _, _ in
            let writable = await store.isWritable()
            return try .json(
                Health(status: writable ? "ok" : "unwritable", queued_events: store.queuedEvents),
                status: writable ? .ok : .serviceUnavailable)
        }
    }
}
