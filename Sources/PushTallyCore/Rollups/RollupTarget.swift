/// Which set of aggregate tables a count goes to: the live rollups, or the ledger of pruned events.
/// Both engines name their tables alike, so the names are part of the rulebook.
package enum RollupTarget: Sendable {
    case rollups
    case ledger

    package var push: String { self == .rollups ? "rollup_push" : "ledger_push" }
    package var bucket: String { self == .rollups ? "rollup_bucket" : "ledger_bucket" }
    package var timing: String { self == .rollups ? "rollup_timing" : "ledger_timing" }
    package var pending: String { self == .rollups ? "pending_timing" : "ledger_pending" }
    package var version: String { self == .rollups ? "rollup_version" : "ledger_version" }
    /// Sessions and conversions per credited push, measure and currency.
    package var outcome: String { self == .rollups ? "rollup_outcome" : "ledger_outcome" }
    /// Sessions and conversions per 15-minute bucket, measure and currency (totals, unattributed included).
    package var outcomeTime: String { self == .rollups ? "rollup_outcome_time" : "ledger_outcome_time" }
    /// Receipts and actions per 15-minute bucket of every push together: the series over all pushes reads a
    /// row per bucket here instead of a row per push and bucket.
    package var time: String { self == .rollups ? "rollup_time" : "ledger_time" }

    /// Unique displays by media outcome and extension time, per push.
    package var media: String { self == .rollups ? "rollup_media" : "ledger_media" }
    /// Unique displays by media outcome, per push and 15-minute bucket.
    package var mediaBucket: String { self == .rollups ? "rollup_media_bucket" : "ledger_media_bucket" }
    /// Unique displays by media outcome and extension time, per push and named app or OS version.
    package var mediaVersion: String { self == .rollups ? "rollup_media_version" : "ledger_media_version" }

    /// Receipts and actions per push, 15-minute bucket and named platform; events that named none are the
    /// bucket rollup's rest.
    package var platformBucket: String { self == .rollups ? "rollup_platform_bucket" : "ledger_platform_bucket" }

    /// Every table of the set, in one order: a rebuild pairs each rollup table with its ledger twin by position.
    package var tables: [String] { [
        push, bucket, timing, pending, version, outcome, outcomeTime, time, media, mediaBucket, mediaVersion, platformBucket,
    ] }
}
