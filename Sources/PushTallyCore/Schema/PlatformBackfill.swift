extension SQLDialect {
    /// Fills the live version rollup's platform rows (``VersionDimension/platform``) from the raw events still
    /// stored, as ingest counts them: per push, platform, kind and action (custom actions folded as
    /// ``NameFold`` folds them), only events that name a platform. Events that name none, and pruned events
    /// (counted in the ledger with no platform), are the `unknown` rest a report derives (``VersionCount``), so
    /// reports equal a recount of the raw events plus the ledger, as before.
    package var platformBackfill: [String] {
        let platform = VersionDimension.platform.rawValue
        return [
            "DELETE FROM \(RollupTarget.rollups.version) WHERE dimension = \(platform)",
            """
            INSERT INTO \(RollupTarget.rollups.version) (push_id, dimension, version, kind, action, total, duplicates)
            SELECT push_id, \(platform), platform, kind, action, COUNT(*), SUM(duplicated) FROM (
                \(Self.platformEvents(""))
            ) f GROUP BY push_id, platform, kind, action
            """,
        ]
    }

    /// The stored receipts and actions that named a platform, as ingest counts them: `push_id`, `platform`,
    /// `kind`, `action` (a custom one folded as ``NameFold`` folds it) and `duplicated` (1 for a retry), then
    /// `columns` (each `, expression AS name` over the event `e`).
    package static func platformEvents(_ columns: String) -> String {
        let custom = [StandardAction.open, StandardAction.dismiss, ActionIDs.overflow].map { "'\($0)'" }.joined(separator: ", ")
        let (display, action) = (EventKind.display.rawValue, EventKind.action.rawValue)
        return """
            SELECT e.push_id, e.platform, e.kind,
                CASE WHEN e.kind = \(action) AND e.action NOT IN (\(custom)) AND NOT EXISTS (
                    SELECT 1 FROM action_ids a WHERE a.app = COALESCE(p.app, '') AND a.action = e.action)
                THEN '\(ActionIDs.overflow)' ELSE e.action END AS action,
                CASE WHEN e.duplicate THEN 1 ELSE 0 END AS duplicated\(columns)
            FROM events e LEFT JOIN pushes p ON p.push_id = e.push_id
            WHERE e.platform IS NOT NULL AND e.kind IN (\(display), \(action))
            """
    }
}
