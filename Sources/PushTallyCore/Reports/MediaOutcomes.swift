/// What became of the rich media of unique displays, and how long their extension took: counted per push,
/// 15-minute bucket and version into the media rollups, and added up by reports.
///
/// A display whose receipt names neither an outcome nor an extension time is in no count at all (reports need
/// only the named outcomes, and such receipts, the classic `push_id` form among them, then cost a commit no
/// media upsert); one that names an extension time but no outcome is ``unknown``, never ``none`` (which means
/// the push asked for none).
public struct MediaOutcomes: Sendable, Hashable {
    public var attached: Int64 = 0
    public var failed: Int64 = 0
    public var timedOut: Int64 = 0
    public var none: Int64 = 0
    public var unknown: Int64 = 0
    /// Extension times of the unique displays that carried one.
    public var extensionTime = ExtensionTimeHistogram()

    public init() {}

    /// The stored count columns, in the order of ``counts``.
    package static let countColumns = ["media_attached", "media_failed", "media_timed_out", "media_none", "media_unknown"]

    /// The counts in ``countColumns``' order.
    package var counts: [Int64] { [attached, failed, timedOut, none, unknown] }

    /// Outcomes from stored values: the counts (``countColumns``' order), then, when present, the histogram's
    /// buckets.
    package init<Values: Collection<Int64>>(values: Values) {
        var values = values[...]
        func next() -> Int64 { values.popFirst() ?? 0 }
        (attached, failed, timedOut, none, unknown) = (next(), next(), next(), next(), next())
        if values.count == ExtensionTimeHistogram.count { extensionTime = ExtensionTimeHistogram(counts: values) }
    }

    /// Whether a unique display that says this is counted (``add(_:extensionMillis:)`` counts nothing else).
    package static func counts(_ media: ReceiptMedia?, extensionMillis: Int64?) -> Bool {
        media != nil || extensionMillis != nil
    }

    /// Counts one unique display, if it says anything of its media.
    package mutating func add(_ media: ReceiptMedia?, extensionMillis: Int64?) {
        guard Self.counts(media, extensionMillis: extensionMillis) else { return }
        switch media {
        case .attached: attached += 1
        case .failed: failed += 1
        case .timedOut: timedOut += 1
        case .some(ReceiptMedia.none): none += 1
        case nil: unknown += 1
        }
        if let extensionMillis { extensionTime.add(millis: extensionMillis) }
    }

    public mutating func add(_ other: MediaOutcomes) {
        attached += other.attached
        failed += other.failed
        timedOut += other.timedOut
        none += other.none
        unknown += other.unknown
        extensionTime.add(other.extensionTime)
    }

    /// These outcomes less `other` (the displays of a total that no named version holds).
    package func subtracting(_ other: MediaOutcomes) -> MediaOutcomes {
        var result = MediaOutcomes()
        result.attached = attached - other.attached
        result.failed = failed - other.failed
        result.timedOut = timedOut - other.timedOut
        result.none = none - other.none
        result.unknown = unknown - other.unknown
        result.extensionTime = extensionTime.subtracting(other.extensionTime)
        return result
    }

    /// Whether no display is counted here.
    public var isEmpty: Bool { counts.allSatisfy { $0 == 0 } && extensionTime.total == 0 }

    /// `attached / (attached + failed + timed_out)`: of the displays whose push asked for media, the share
    /// shown with it; `nil` when none asked.
    public var richRate: Double? { Funnel.ratio(attached, attached + failed + timedOut) }

    /// The report columns, after the others (new columns go last: CSV readers may go by position).
    package var columns: [(String, ReportValue)] {
        [
            ("media_attached", .integer(attached)),
            ("media_failed", .integer(failed)),
            ("media_timed_out", .integer(timedOut)),
            ("rich_rate", .rate(richRate)),
            ("extension_ms_p50", .optionalInteger(extensionTime.quantileMillis(0.5))),
            ("extension_ms_p90", .optionalInteger(extensionTime.quantileMillis(0.9))),
        ]
    }
}
