/// Every role of a store: what `serve` opens. SQLite (`PushTallySQLite`) is the embedded default; PostgreSQL
/// (`PushTallyPostgres`) serves deployments with many collectors. Both give the same answers to every call
/// (one test suite runs against each), because every rule is in this module and the engines only run the
/// statements it plans.
///
/// Code that needs one role takes that role (``EventIngestor``, ``PushRegistry``, ``ReportReader``,
/// ``TokenStore``, ``StoreMaintenance``, ``StoreLifecycle``, ``WebhookStore``, ``AlertStore``,
/// ``DeviceTimelineReader``, ``FCMDeliveryStore``, ``EventFeedReader``, ``DeviceDeliveryStore``), so a test double
/// of it stays small.
public protocol PushTallyStore:
    EventIngestor, PushRegistry, ReportReader, TokenStore, StoreMaintenance, StoreLifecycle, WebhookStore, AlertStore,
    DeviceTimelineReader, FCMDeliveryStore, EventFeedReader, DeviceDeliveryStore
{}
