/// Sums one transaction's events per rollup key, so each distinct key costs one upsert, not one per event.
///
/// Keys compare names byte for byte, as the databases do: a database written before names were put in NFC at the
/// door may keep two spellings of one name apart (``SpellingMigration``), and a commit, prune or rebuild that holds
/// both must count them apart too.
public struct RollupAccumulator {
    package struct PushKey: Hashable {
        package var pushID: String
        package var kind: EventKind
        package var action: String
    }

    package struct BucketKey: Hashable {
        package var push: PushKey
        package var bucket: Int64
    }

    /// One row of receipt counts: what a commit adds to a row of `rollup_push` (and its bucket and version
    /// twins), and what a report reads back from one (``PushRowSink/rollup(pushID:kind:action:values:)``).
    public struct Delta: Sendable, Hashable {
        package var total: Int64 = 0
        package var duplicates: Int64 = 0
        package var firstTime: Int64 = .max
        package var lastTime: Int64 = .min
        /// The per-push counts (``PushCount``): only `rollup_push` rows hold them.
        package var counts = PushCounts()

        package init() {}

        mutating func add(eventTime: Int64, duplicate: Bool) {
            total += 1
            if duplicate { duplicates += 1 }
            firstTime = min(firstTime, eventTime)
            lastTime = max(lastTime, eventTime)
        }

        mutating func add(_ other: Delta) {
            total += other.total
            duplicates += other.duplicates
        }
    }


    /// A row of the series rollup: one bucket, kind and action over every push.
    package struct TimeKey: Hashable {
        package var bucket: Int64
        package var kind: EventKind
        package var action: String
    }

    package struct PendingKey: Hashable {
        package var pushID: String
        /// 0: event time, 1: receive time.
        package var clock: Int
        package var second: Int64
    }

    package struct VersionKey: Hashable {
        package var push: PushKey
        /// ``VersionDimension``'s raw value: 0 app version, 1 OS version, 2 platform.
        package var dimension: Int
        package var version: String
    }

    /// An outcome rollup row: per credited push (`""` when unattributed), measure and currency (`""` when
    /// the event has no value).
    package struct OutcomeKey: Hashable {
        package var pushID: String
        package var measure: OutcomeMeasure
        package var currency: String
    }

    /// An outcome row over time, for totals that include what no push explains.
    package struct OutcomeTimeKey: Hashable {
        package var bucket: Int64
        package var measure: OutcomeMeasure
        package var currency: String
    }

    /// Counts and values may go down: a late event moves a session's credit from one push to another.
    /// The value is stored as its two parts (``MoneyTotal``): a commit's values can pass 64 bits of millionths.
    package struct OutcomeDelta: Hashable {
        package var count: Int64 = 0
        package var value = MoneyTotal.zero

        package init() {}

        /// Moves that cancelled out within one transaction need no upsert.
        package var isZero: Bool { count == 0 && value.isZero }
    }

    /// A row of the per-version media rollup: one push and one named app (0) or OS (1) version.
    package struct MediaVersionKey: Hashable {
        package var pushID: String
        package var dimension: Int
        package var version: String
    }

    /// A row of the per-bucket platform rollup: one push, bucket, named platform, kind and action.
    package struct PlatformBucketKey: Hashable {
        package var bucket: BucketKey
        package var platform: String
    }

    /// A row of the per-bucket media rollup.
    package struct MediaBucketKey: Hashable {
        package var pushID: String
        package var bucket: Int64
    }

    package private(set) var versions: [VersionKey: Delta] = [:]
    package private(set) var pushes: [PushKey: Delta] = [:]
    package private(set) var buckets: [BucketKey: Delta] = [:]
    /// Bucket deltas of the events that named a platform, by platform (the rest named none).
    package private(set) var platformBuckets: [PlatformBucketKey: Delta] = [:]
    /// Time-to-display histograms by push.
    package var latency: ByPush<LatencyHistogram> { ByPush(values: latencyByPush) }
    private var latencyByPush: [ExactText: LatencyHistogram] = [:]
    package private(set) var pending: [PendingKey: Int64] = [:]
    package private(set) var outcomes: [OutcomeKey: OutcomeDelta] = [:]
    package private(set) var outcomeTimes: [OutcomeTimeKey: OutcomeDelta] = [:]
    /// Unique displays by media outcome and extension time, per push, per push and bucket (whose histograms
    /// are not stored), and per push and named version.
    package var media: ByPush<MediaOutcomes> { ByPush(values: mediaByPush) }
    private var mediaByPush: [ExactText: MediaOutcomes] = [:]
    package private(set) var mediaBuckets: [MediaBucketKey: MediaOutcomes] = [:]
    package private(set) var mediaVersions: [MediaVersionKey: MediaOutcomes] = [:]
    /// Where the last keys of ``pushes``, ``buckets`` and ``pending`` are stored (``RecentSlots``): every receipt
    /// adds to a row of each, mostly to its neighbour's.
    private var recentPushes = RecentSlots<PushKey, Delta>()
    private var recentBuckets = RecentSlots<BucketKey, Delta>()
    private var recentPending = RecentSlots<PendingKey, Int64>()

    package init() {}

    /// Room for the keys `events` receipts can make (each at most one push row and one bucket row), so a
    /// commit's counting never stops to grow and rehash its tables.
    package mutating func reserveCapacity(events: Int) {
        pushes.reserveCapacity(events)
        buckets.reserveCapacity(events)
        latencyByPush.reserveCapacity(events)
        recentPushes.forget()
        recentBuckets.forget()
    }

    /// The bucket deltas summed over pushes, for the series rollup: derived once per transaction from
    /// ``buckets`` (a key per distinct bucket row, not a hash per event), so both always agree.
    package var times: [TimeKey: Delta] {
        var times: [TimeKey: Delta] = [:]
        for (key, delta) in buckets {
            times[TimeKey(bucket: key.bucket, kind: key.push.kind, action: key.push.action), default: Delta()].add(delta)
        }
        return times
    }

    package var isEmpty: Bool { pushes.isEmpty && outcomes.isEmpty }

    /// Whether the only rows to upsert are outcome rows (a commit of sessions and conversions): every other
    /// table's deltas are empty. Kept beside the tables it names, so a table added here is added to it.
    package var holdsOnlyOutcomes: Bool {
        pushes.isEmpty && buckets.isEmpty && platformBuckets.isEmpty && latencyByPush.isEmpty && pending.isEmpty
            && versions.isEmpty && mediaByPush.isEmpty && mediaBuckets.isEmpty && mediaVersions.isEmpty
    }

    /// Counts a session or conversion credited `attribution` (`sign` -1 takes a former credit back).
    package mutating func addOutcome(
        kind: EventKind, attribution: Attribution, eventTime: Int64, valueMicros: Int64?, currency: String?, sign: Int64
    ) {
        let measure = OutcomeMeasure(kind: kind, attribution: attribution)
        let currency = valueMicros == nil ? "" : currency ?? ""
        // One conversion's value is at most 10^15 millionths (MoneyAmount), so the product fits.
        let value = MoneyTotal(micros: (valueMicros ?? 0) * sign)
        outcomes[OutcomeKey(pushID: attribution.pushID ?? "", measure: measure, currency: currency), default: OutcomeDelta()]
            .add(count: sign, value: value)
        let bucket = EventTime.bucket(ofMillis: eventTime)
        outcomeTimes[OutcomeTimeKey(bucket: bucket, measure: measure, currency: currency), default: OutcomeDelta()]
            .add(count: sign, value: value)
    }

    package mutating func add(
        pushID: String, kind: EventKind, action: String, eventTime: Int64, duplicate: Bool, appVersion: String?,
        osVersion: String?, platform: String?
    ) {
        guard kind.namesPush else { return }
        let key = PushKey(pushID: pushID, kind: kind, action: action)
        // Only named versions: the unnamed rest is derived at read time (rollup_push minus the named ones).
        // Plain checks, not a loop over a literal array: this runs once per event.
        if let appVersion {
            versions[VersionKey(push: key, dimension: 0, version: appVersion), default: Delta()]
                .add(eventTime: eventTime, duplicate: duplicate)
        }
        if let osVersion {
            versions[VersionKey(push: key, dimension: 1, version: osVersion), default: Delta()]
                .add(eventTime: eventTime, duplicate: duplicate)
        }
        pushes.update(key, default: Delta(), recent: &recentPushes) { $0.add(eventTime: eventTime, duplicate: duplicate) }
        let bucketKey = BucketKey(push: key, bucket: EventTime.bucket(ofMillis: eventTime))
        buckets.update(bucketKey, default: Delta(), recent: &recentBuckets) { $0.add(eventTime: eventTime, duplicate: duplicate) }
        if let platform {
            versions[VersionKey(push: key, dimension: 2, version: platform), default: Delta()]
                .add(eventTime: eventTime, duplicate: duplicate)
            platformBuckets[PlatformBucketKey(bucket: bucketKey, platform: platform), default: Delta()]
                .add(eventTime: eventTime, duplicate: duplicate)
        }
    }

    /// Counts a unique display's media outcome and extension time. Only named versions have rows, as in
    /// ``versions``: the rest is a push's total minus them.
    package mutating func addMedia(
        pushID: String, media outcome: ReceiptMedia?, extensionMillis: Int64?, eventTime: Int64, appVersion: String?,
        osVersion: String?
    ) {
        // No row for a display that says nothing of its media, not even an empty one (an upsert of zeros).
        guard MediaOutcomes.counts(outcome, extensionMillis: extensionMillis) else { return }
        mediaByPush[ExactText(pushID), default: MediaOutcomes()].add(outcome, extensionMillis: extensionMillis)
        // The extension time only decides whether the display counts: bucket rows store no histogram.
        mediaBuckets[MediaBucketKey(pushID: pushID, bucket: EventTime.bucket(ofMillis: eventTime)), default: MediaOutcomes()]
            .add(outcome, extensionMillis: extensionMillis)
        if let appVersion {
            mediaVersions[MediaVersionKey(pushID: pushID, dimension: 0, version: appVersion), default: MediaOutcomes()]
                .add(outcome, extensionMillis: extensionMillis)
        }
        if let osVersion {
            mediaVersions[MediaVersionKey(pushID: pushID, dimension: 1, version: osVersion), default: MediaOutcomes()]
                .add(outcome, extensionMillis: extensionMillis)
        }
    }

    /// Times a unique display: into the histogram when `sent_at` is known, else into pending timing.
    package mutating func addTiming(
        pushID: String, eventTime: Int64, receivedAt: Int64, sentAt: Int64?, maturityWindow: Int64
    ) {
        guard let sentAt else {
            pending.update(PendingKey(pushID: pushID, clock: 0, second: floorSeconds(eventTime)), default: 0, recent: &recentPending) { $0 += 1 }
            pending.update(PendingKey(pushID: pushID, clock: 1, second: floorSeconds(receivedAt)), default: 0, recent: &recentPending) { $0 += 1 }
            return
        }
        // Whole seconds, exactly as pending timing is settled, so both paths (and a rebuild) agree.
        let latency = floorSeconds(eventTime) * 1000 - sentAt
        latencyByPush[ExactText(pushID), default: LatencyHistogram()].add(bucket: LatencyHistogram.bucket(ofMillis: latency), count: 1)
        if floorSeconds(receivedAt) * 1000 > sentAt + maturityWindow {
            pushes.update(PushKey(pushID: pushID, kind: .display, action: ""), default: Delta(), recent: &recentPushes) { $0.counts[.late] += 1 }
        }
    }
}

extension RollupAccumulator.OutcomeDelta {
    mutating func add(count: Int64, value: MoneyTotal) {
        self.count += count
        // Cannot fail: a commit holds at most the writer's batch of events, each at most a billion units,
        // far inside the 9.2 × 10^18 units a MoneyTotal holds.
        self.value.add(value)
    }
}

package func floorSeconds(_ millis: Int64) -> Int64 {
    millis >= 0 ? millis / 1000 : (millis - 999) / 1000
}
