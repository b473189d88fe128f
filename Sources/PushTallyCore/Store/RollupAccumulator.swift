/// Sums one transaction's events per rollup key, so each distinct key costs one upsert, not one per event.
struct RollupAccumulator {
    struct PushKey: Hashable {
        var pushID: String
        var kind: EventKind
        var action: String
    }

    struct BucketKey: Hashable {
        var push: PushKey
        var bucket: Int64
    }

    struct Delta {
        var total: Int64 = 0
        var duplicates: Int64 = 0
        var firstTime: Int64 = .max
        var lastTime: Int64 = .min

        mutating func add(eventTime: Int64, duplicate: Bool) {
            total += 1
            if duplicate { duplicates += 1 }
            firstTime = min(firstTime, eventTime)
            lastTime = max(lastTime, eventTime)
        }
    }

    private(set) var pushes: [PushKey: Delta] = [:]
    private(set) var buckets: [BucketKey: Delta] = [:]

    mutating func add(_ event: IncomingEvent, eventTime: Int64, duplicate: Bool) {
        let key = PushKey(pushID: event.pushID, kind: event.kind, action: event.action)
        pushes[key, default: Delta()].add(eventTime: eventTime, duplicate: duplicate)
        let bucketKey = BucketKey(push: key, bucket: EventTime.bucket(ofMillis: eventTime))
        buckets[bucketKey, default: Delta()].add(eventTime: eventTime, duplicate: duplicate)
    }
}
