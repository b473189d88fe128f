import GRDB
import PushTallyCore

extension SQLiteStore: DeviceDeliveryStore {
    /// Stores one post of delivery lines in one transaction (``DeliveryPlan``).
    public func recordDeliveries(pushID: String, _ lines: [DeliveryLine]) async throws -> DeliverySummary {
        let now = configuration.clock()
        let keys = lines.map { deviceHasher.hash($0.deviceID) }
        let (summary, queued) = try await write { db in
            guard let push = try db.fetch(Queries.SelectDeliveryPush(pushID: pushID)).first else {
                throw StoreError.pushNotRegistered(pushID: pushID)
            }
            try DeliveryPlan.checkWindow(pushID: pushID, sentMillis: push.sentAt ?? now, nowMillis: now)
            var stored: [String: DeviceState] = [:]
            let distinct = Array(Set(keys)).sorted()
            for start in stride(from: 0, to: distinct.count, by: Queries.SelectDeviceStates.maxKeys) {
                let chunk = Array(distinct[start..<min(start + Queries.SelectDeviceStates.maxKeys, distinct.count)])
                for state in try db.fetch(Queries.SelectDeviceStates(keys: chunk)) { stored[state.deviceKey] = state }
            }
            var activity: [String: DeviceActivity] = [:]
            let fresh = DeliveryPlan.newDevices(keys, stored: stored)
            for start in stride(from: 0, to: fresh.count, by: Queries.SelectDeviceStates.maxKeys) {
                let chunk = Array(fresh[start..<min(start + Queries.SelectDeviceStates.maxKeys, fresh.count)])
                for known in try db.fetch(Queries.SelectDeviceActivity(keys: chunk)) { activity[known.deviceKey] = known }
            }
            let plan = DeliveryPlan(
                pushID: pushID, app: push.app ?? "", sentMillis: push.sentAt ?? now, nowMillis: now, lines: lines, keys: keys,
                stored: stored, activity: activity)
            for key in plan.states.keys.sorted() { try db.run(Queries.UpsertDeviceState(plan.states[key]!)) }
            let records = try plan.records { batchID in
                Queries.SelectSendRecord.counts(try db.fetch(Queries.SelectSendRecord(pushID: pushID, batchID: batchID)), platform: "")
            }
            for record in records {
                try Self.replaceCounts(record.counts, pushID: pushID, batchID: record.batchID, now: now, in: db)
            }
            let outbox = try SQLiteOutbox.outbox(in: db)
            return (plan.summary, try SQLiteOutbox.queue(outbox.messages(forRejected: plan.rejectedDevices, pushID: pushID, at: now), in: db))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return summary
    }

    public func deviceStates(deviceIDs: [String]) async throws -> [String: DeviceState] {
        let keyed = Dictionary(deviceIDs.map { (deviceHasher.hash($0), $0) }, uniquingKeysWith: { first, _ in first })
        let keys = keyed.keys.sorted()
        return try await read { db in
            var states: [String: DeviceState] = [:]
            for start in stride(from: 0, to: keys.count, by: Queries.SelectDeviceStates.maxKeys) {
                let chunk = Array(keys[start..<min(start + Queries.SelectDeviceStates.maxKeys, keys.count)])
                for state in try db.fetch(Queries.SelectDeviceStates(keys: chunk)) { states[keyed[state.deviceKey]!] = state }
            }
            return states
        }
    }

    /// Devices sent pushes in the window by state, counted from one snapshot of their stored states.
    public func deviceStateCounts(_ query: DeviceStateQuery) async throws -> [DeviceStateCount] {
        let now = configuration.clock()
        return try await read { db in
            var tally = DeviceStateTally(query, nowMillis: now)
            try db.forEach(Queries.SelectDeviceStates(sentSince: tally.sentSince)) { tally.add($0) }
            return tally.counts
        }
    }

    /// Finds the gone devices in a read, then names the ones no message named yet in one short write.
    public func notifyGoneDevices(nowMillis: Int64) async throws -> Int {
        let since = DeviceStateQuery().sinceMillis(nowMillis: nowMillis)
        let wanted = try await read { db in try SQLiteOutbox.outbox(in: db).wants(.deviceGone) }
        guard wanted else { return 0 }
        let found = try await read { db in
            var states: [DeviceState] = []
            try db.forEach(Queries.SelectDeviceStates(sentSince: since)) { states.append($0) }
            return GoneDevices.found(states, nowMillis: nowMillis)
        }
        guard !found.isEmpty else { return 0 }
        let (named, queued) = try await write { db in
            var claimed: [DeviceState] = []
            for start in stride(from: 0, to: found.count, by: Queries.SelectDeviceStates.maxKeys) {
                let chunk = found[start..<min(start + Queries.SelectDeviceStates.maxKeys, found.count)]
                let marked = Set(try db.fetch(Queries.ClaimGoneDevices(keys: chunk.map(\.deviceKey), sinceMillis: since, nowMillis: nowMillis)))
                claimed += chunk.filter { marked.contains($0.deviceKey) }
            }
            let outbox = try SQLiteOutbox.outbox(in: db)
            return (claimed.count, try SQLiteOutbox.queue(outbox.messages(forGone: claimed, at: nowMillis), in: db))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return named
    }
}
