/// The stores the store, report and route suites run against, each test once per store.
public enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, postgres
    public var description: String { rawValue }
}
