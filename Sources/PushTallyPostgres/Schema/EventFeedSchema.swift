import PushTallyCore

/// The columns and index the event feed reads PostgreSQL's raw events by (``EventCursor``).
///
/// `tx` is the transaction that stored the row. Rows stored before the column was added read 0, before every
/// later transaction, which is their place: they had all committed. A constant default first, so adding the
/// column rewrites no partition; then the storing transaction's id for every row from now on.
enum EventFeedSchema {
    static let migration: [String] = EventColumns.eventIdentity.map(SQLDialect.postgres.addEventColumn) + [
        "ALTER TABLE events ADD COLUMN tx xid8 NOT NULL DEFAULT '0'",
        "ALTER TABLE events ALTER COLUMN tx SET DEFAULT pg_current_xact_id()",
        "CREATE INDEX events_by_commit ON events (tx, id)",
    ]
}
