/// The `CREATE` statements of the shared tables besides raw events and rollups (``SQLDialect/createEvents``,
/// ``SQLDialect/create(_:in:sharded:)``), one per table, so each engine's migrations state every table once.
extension SQLDialect {
    /// Every dedupe key an event was stored under: an event whose key is here already is a retry.
    package var createDedupe: String {
        "CREATE TABLE dedupe (push_id TEXT NOT NULL, key TEXT NOT NULL, PRIMARY KEY (push_id, key))\(withoutRowID)"
    }

    package var createPushes: String {
        """
        CREATE TABLE pushes (
            push_id TEXT PRIMARY KEY NOT NULL, campaign TEXT NOT NULL, title TEXT, sent_at \(integer), app TEXT,
            environment TEXT, created_at \(integer) NOT NULL, updated_at \(integer) NOT NULL)
        """
    }

    package static let pushesByCampaign = "CREATE INDEX pushes_by_campaign ON pushes (campaign)"
    package static let pushesByApp = "CREATE INDEX pushes_by_app ON pushes (app, environment)"

    /// A push's sends: batch_id '' holds the absolute totals of `PUT /v1/pushes/{id}`; others are parallel
    /// senders' batches.
    package var createPushSends: String {
        """
        CREATE TABLE push_sends (
            push_id TEXT NOT NULL, batch_id TEXT NOT NULL, targeted \(integer) NOT NULL, sent \(integer) NOT NULL,
            PRIMARY KEY (push_id, batch_id))\(withoutRowID)
        """
    }

    package var createPushFailures: String {
        """
        CREATE TABLE push_failures (
            push_id TEXT NOT NULL, batch_id TEXT NOT NULL, reason TEXT NOT NULL, count \(integer) NOT NULL,
            PRIMARY KEY (push_id, batch_id, reason))\(withoutRowID)
        """
    }

    package var createTokens: String {
        """
        CREATE TABLE tokens (
            id TEXT PRIMARY KEY NOT NULL, role TEXT NOT NULL, secret_hash \(blob) NOT NULL, label TEXT,
            created_at \(integer) NOT NULL, revoked_at \(integer))
        """
    }

    /// `/healthz` writes here, so it fails when the disk is full, not only when the database is read-only.
    package var createHealthcheck: String {
        "CREATE TABLE healthcheck (id \(integer) PRIMARY KEY, checked_at \(integer) NOT NULL)"
    }

    /// Keys and values about the database itself; `database_id` names it in exports, so an import knows which
    /// events it already holds (each engine draws the id its own way).
    package var createMeta: String { "CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL)" }

    package var createImportedEvents: String {
        "CREATE TABLE imported_events (source TEXT NOT NULL, seq \(integer) NOT NULL, PRIMARY KEY (source, seq))\(withoutRowID)"
    }
}
