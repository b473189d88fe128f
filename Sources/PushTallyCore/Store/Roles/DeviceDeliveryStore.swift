/// The push backend's per-device deliveries: which devices a push went to and what the provider said
/// (``DeliveryPlan`` is the rule every engine applies).
public protocol DeviceDeliveryStore: Sendable {
    /// Stores one post of `lines` for the registered push `pushID` in one transaction: each new device and push
    /// pair counted once into the push's delivery records (``DeliveryRecords``) and its device's state; a pair
    /// stored before changes nothing.
    /// - Throws: ``StoreError/pushNotRegistered(pushID:)`` for a push nobody registered.
    func recordDeliveries(pushID: String, _ lines: [DeliveryLine]) async throws -> DeliverySummary
    /// The stored states of the devices whose install ids are `deviceIDs` (keyed as ingest keys them), by install id;
    /// an id the backend never posted a delivery for is absent.
    func deviceStates(deviceIDs: [String]) async throws -> [String: DeviceState]
    /// Queues `device.gone` for the devices sent pushes in the last 30 days that are gone now and that no such
    /// message named since their client was last heard from (nothing when no endpoint subscribes); returns how
    /// many devices it named.
    func notifyGoneDevices(nowMillis: Int64) async throws -> Int
}
