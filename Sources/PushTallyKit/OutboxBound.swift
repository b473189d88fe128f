import Foundation

/// How much the outbox may hold: a phone's storage is not the collector's backlog.
struct OutboxBound: Equatable, Sendable {
    var maxEvents: Int
    var maxBytes: Int
    var maxAge: TimeInterval

    /// The queued names to delete, given oldest first: every event older than `maxAge`, and then, oldest
    /// first, as many as it takes for the rest to fit in `maxEvents` and `maxBytes`.
    ///
    /// It keeps the newest events that fit and drops everything older than the first that does not, so an
    /// older event never outlives a newer one for being smaller.
    func overflow(names: [String], now: Date, size: (String) -> Int) -> [String] {
        var kept = 0
        var bytes = 0
        var full = false
        var dropped: [String] = []
        for name in names.reversed() {
            // A name that carries no time is not ours to keep: it can never age out otherwise.
            let tooOld = Outbox.queuedAt(name).map { now.timeIntervalSince($0) > maxAge } ?? true
            if tooOld {
                dropped.append(name)
                continue
            }
            let length = size(name)
            full = full || kept + 1 > maxEvents || bytes + length > maxBytes
            if full {
                dropped.append(name)
            } else {
                kept += 1
                bytes += length
            }
        }
        return dropped.reversed()
    }
}

extension Outbox {
    /// The size of a queued event's file; 0 if it is gone.
    func size(of name: String) -> Int {
        (try? events.appendingPathComponent(name).resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) ?? 0
    }

    /// Deletes what is past `bound` and adds the number deleted to the shared state's `dropped`.
    ///
    /// The caller holds the flush lock: an event in a batch on its way to the collector is then never
    /// deleted (and counted as dropped) under the sender.
    func trim(to bound: OutboxBound, now: Date) async {
        _ = await updateState { state in
            let doomed = bound.overflow(names: names(), now: now, size: size(of:))
            for name in doomed { remove(name) }
            state.dropped += doomed.count
        }
    }
}
