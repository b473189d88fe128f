/// The device id a timeline is asked for, held to the bound ingest holds it to: an id longer than any device
/// could have sent is a mistake to name, not a device with no events.
public enum TimelineDeviceID {
    /// `id`, or a ``FieldError`` naming `device_id`: empty, longer than ingest takes, or holding control characters.
    public static func checked(_ id: String) throws(FieldError) -> String {
        let limit = EventValidator.limits["device_id"] ?? 128
        guard let checked = try EventValidator.checkedText(id, field: "device_id", limit: limit) else {
            throw .missing("device_id")
        }
        return checked
    }
}
