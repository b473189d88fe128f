import Foundation

/// Event counts of one 15-minute rollup bucket, summed over the pushes a report covers.
public struct BucketCount: Sendable, Hashable {
    /// The 15-minute bucket index (``EventTime/bucket(ofMillis:)``).
    public var bucket: Int64
    public var kind: EventKind
    public var action: String
    public var count: EventCount

    public init(bucket: Int64, kind: EventKind, action: String, count: EventCount) {
        self.bucket = bucket
        self.kind = kind
        self.action = action
        self.count = count
    }
}

extension BucketCount {
    /// `counts` less `less` (rows of the same bucket, kind and action), rows left with no events dropped.
    package static func subtracting(_ less: [BucketCount], from counts: [BucketCount]) -> [BucketCount] {
        guard !less.isEmpty else { return counts }
        struct Key: Hashable {
            let bucket: Int64
            let kind: EventKind
            let action: String
        }
        var taken: [Key: EventCount] = [:]
        for row in less { taken[Key(bucket: row.bucket, kind: row.kind, action: row.action), default: EventCount()].add(row.count) }
        return counts.compactMap { row in
            guard let minus = taken[Key(bucket: row.bucket, kind: row.kind, action: row.action)] else { return row }
            var row = row
            row.count = EventCount(total: row.count.total - minus.total, duplicates: row.count.duplicates - minus.duplicates)
            return row.count == EventCount() ? nil : row
        }
    }
}

/// Hour or day buckets in an IANA zone, assembled exactly from 15-minute rollups (DST handled by the zone's
/// calendar; zones offset by :30 or :45 align with 15 minutes).
public struct TimeseriesOptions: Sendable, Hashable {
    public enum Width: String, Sendable, CaseIterable {
        case hour, day

        var component: Calendar.Component { self == .hour ? .hour : .day }
    }

    public var width: Width
    public var timeZone: TimeZone
    /// The zone's name as asked for (Foundation on Linux reports `UTC` as `GMT`).
    public var timeZoneName: String
    /// A series may not hold more buckets than this (a year of hours is 8,784).
    public static let maximumBuckets = 10_000

    public init(width: Width = .day, timeZone: TimeZone = TimeZone(identifier: "UTC")!, name: String? = nil) {
        self.width = width
        self.timeZone = timeZone
        self.timeZoneName = name ?? timeZone.identifier
    }

    /// A zone by IANA name, or a `bad_value` error for the `tz` field.
    ///
    /// Foundation also reads offsets such as `GMT+8` (UTC+8), which are no IANA names and whose sign is the
    /// opposite of IANA's own `Etc/GMT+8` (UTC-8): one of them would be read the wrong way round, so both
    /// spellings without `Etc/` are refused with the name to use.
    public static func zone(named name: String) throws(FieldError) -> TimeZone {
        if name.wholeMatch(of: /(?i)(GMT|UTC|UT)[+-].*/) != nil {
            throw FieldError(
                "bad_value",
                "\(name) is an offset, not an IANA time zone name; name the place (Asia/Taipei), or use IANA's Etc/GMT zones, whose sign is inverted (Etc/GMT-8 is UTC+8)",
                field: "tz")
        }
        guard let zone = TimeZone(identifier: name) else {
            throw FieldError("bad_value", "unknown time zone \(name); use an IANA name such as Asia/Taipei", field: "tz")
        }
        return zone
    }
}

/// The time series report: counts per local hour or day.
public enum TimeseriesReport {
    public static func table(
        _ counts: [BucketCount], options: TimeseriesOptions, fromMillis: Int64?, toMillis: Int64?
    ) throws(FieldError) -> ReportTable {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = options.timeZone
        var startOf: [Int64: Date] = [:]
        var funnels: [Date: Funnel] = [:]
        for count in counts {
            let start = startOf[count.bucket] ?? {
                let date = Date(timeIntervalSince1970: Double(count.bucket * EventTime.bucketMillis) / 1000)
                let start = calendar.dateInterval(of: options.width.component, for: date)!.start
                startOf[count.bucket] = start
                return start
            }()
            var funnel = Funnel()
            if count.kind == .display { funnel.displays = count.count } else { funnel.actions[count.action] = count.count }
            funnels[start, default: Funnel()].add(funnel)
        }
        // Every bucket from the first to the last (or the requested range) is listed, empty ones as zeros,
        // so a chart's x axis needs no gap logic.
        let first = fromMillis.map { calendar.dateInterval(of: options.width.component, for: date($0))!.start } ?? funnels.keys.min()
        let last = toMillis.map { date($0 - 1) } ?? funnels.keys.max()
        var starts: [Date] = []
        if let first, let last, first <= last {
            var cursor = first
            while cursor <= last {
                starts.append(cursor)
                guard starts.count <= TimeseriesOptions.maximumBuckets else {
                    throw FieldError(
                        "too_many_buckets", "the range holds more than \(TimeseriesOptions.maximumBuckets) buckets; narrow from/to or use bucket=day",
                        field: "bucket")
                }
                // The next bucket starts where this one ends: adding a day to a day that began at 01:00
                // (DST skipping midnight, as in America/Santiago) would land on 01:00 ever after.
                cursor = calendar.dateInterval(of: options.width.component, for: cursor)!.end
            }
        }
        let rows = starts.map { start in
            let millis = Int64((start.timeIntervalSince1970 * 1000).rounded())
            let iso = Timestamp.iso8601(millis: millis, offsetSeconds: options.timeZone.secondsFromGMT(for: start))
            return columns(start: iso, funnels[start] ?? Funnel())
        }
        return ReportTable(
            name: "buckets", rows: rows, template: columns(start: "", Funnel()),
            header: [("bucket", .text(options.width.rawValue)), ("tz", .text(options.timeZoneName))])
    }

    static func columns(start: String, _ funnel: Funnel) -> [(String, ReportValue)] {
        [
            ("start", .text(start)),
            ("displayed", .integer(funnel.displayed)),
            ("duplicates", .integer(funnel.duplicates)),
            ("displayed_unique", .integer(funnel.displayedUnique)),
            ("opened", .integer(funnel.opened)),
            ("opened_unique", .integer(funnel.openedUnique)),
            ("dismissed", .integer(funnel.dismissed)),
            ("actions", .counts(funnel.customActions, csvPrefix: "action:")),
        ]
    }

    private static func date(_ millis: Int64) -> Date {
        Date(timeIntervalSince1970: Double(millis) / 1000)
    }
}
