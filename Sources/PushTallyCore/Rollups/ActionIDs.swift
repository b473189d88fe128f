/// Custom action ids, the first of the ``BoundedField``s: they become report columns (`action:<id>`), JSON keys
/// and chart series, so each app admits a bounded number of them (``NameBounds/actions``).
public enum ActionIDs {
    /// The column or row every name past an app's bound counts under. A client sending `other` itself counts
    /// there too, without taking a slot.
    public static let overflow = "other"
    /// Custom ids admitted per app unless `--max-action-ids` says otherwise.
    public static let defaultBound = 64

    /// Whether an action takes one of its app's slots: `open`, `dismiss` and ``overflow`` are always columns.
    @inline(__always)
    package static func isCustom(kind: EventKind, action: String) -> Bool {
        kind == .action && action != StandardAction.open && action != StandardAction.dismiss && action != overflow
    }
}
