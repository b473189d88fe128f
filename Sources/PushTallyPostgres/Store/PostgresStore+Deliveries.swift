import Logging
import PostgresNIO
import PushTallyCore

extension PostgresStore: DeviceDeliveryStore {
    /// Stores one post of delivery lines in one transaction (``DeliveryPlan``), under the push's exclusive lock
    /// and its devices' locks, so posts of other pushes for the same devices on other collectors take turns.
    public func recordDeliveries(pushID: String, _ lines: [DeliveryLine]) async throws -> DeliverySummary {
        guard let deviceHasher else { throw StoreError.misconfigured("deliveries need the device secret (--device-secret)") }
        let now = configuration.clock()
        let keys = lines.map { deviceHasher.hash($0.deviceID) }
        let logger = logger
        let (summary, queued) = try await transaction { connection in
            try await PushLocks.lock([pushID], mode: .exclusive, devices: Set(keys), on: connection, logger: logger)
            guard let push = try await connection.fetch(Queries.SelectDeliveryPush(pushID: pushID), logger: logger).first else {
                throw StoreError.pushNotRegistered(pushID: pushID)
            }
            try DeliveryPlan.checkWindow(pushID: pushID, sentMillis: push.sentAt ?? now, nowMillis: now)
            let stored = try await Self.states(Array(Set(keys)).sorted(), on: connection, logger: logger)
            var activity: [String: DeviceActivity] = [:]
            let fresh = DeliveryPlan.newDevices(keys, stored: stored)
            for start in stride(from: 0, to: fresh.count, by: Queries.SelectDeviceStates.maxKeys) {
                let chunk = Array(fresh[start..<min(start + Queries.SelectDeviceStates.maxKeys, fresh.count)])
                for known in try await connection.fetch(Queries.SelectDeviceActivity(keys: chunk), logger: logger) {
                    activity[known.deviceKey] = known
                }
            }
            let plan = DeliveryPlan(
                pushID: pushID, app: push.app ?? "", sentMillis: push.sentAt ?? now, nowMillis: now, lines: lines, keys: keys,
                stored: stored, activity: activity)
            let states = plan.states.keys.sorted().map { plan.states[$0]! }
            for query in SQLBuilder.values(
                states, columns: DeviceStateSchema.columns.count, head: Queries.UpsertDeviceState.head,
                tail: Queries.UpsertDeviceState.conflict, bind: { state, sql in state.values.map { sql.bindValue($0) } })
            {
                try await connection.run(query, logger: logger)
            }
            var before: [String: SendCounts] = [:]
            for platform in plan.counts.keys {
                let batchID = DeliveryRecords.batchID(platform: platform)
                let rows = try await connection.fetch(Queries.SelectSendRecord(pushID: pushID, batchID: batchID), logger: logger)
                before[batchID] = Queries.SelectSendRecord.counts(rows, platform: platform)
            }
            for record in plan.records(stored: { before[$0] ?? SendCounts() }) {
                try await Self.replaceCounts(record.counts, pushID: pushID, batchID: record.batchID, now: now, on: connection, logger: logger)
            }
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            let messages = outbox.messages(forRejected: plan.rejectedDevices, pushID: pushID, at: now)
            return (plan.summary, try await PostgresOutbox.queue(messages, on: connection, logger: logger))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return summary
    }

    public func deviceStates(deviceIDs: [String]) async throws -> [String: DeviceState] {
        guard let deviceHasher else { throw StoreError.misconfigured("device states need the device secret (--device-secret)") }
        let keyed = Dictionary(deviceIDs.map { (deviceHasher.hash($0), $0) }, uniquingKeysWith: { first, _ in first })
        let keys = keyed.keys.sorted()
        let found: [String: DeviceState] = try await readSnapshot { read in
            var found: [String: DeviceState] = [:]
            for start in stride(from: 0, to: keys.count, by: Queries.SelectDeviceStates.maxKeys) {
                let query = Queries.SelectDeviceStates(keys: Array(keys[start..<min(start + Queries.SelectDeviceStates.maxKeys, keys.count)]))
                for row in try await read(PostgresQuery(query)) {
                    let state = try query.row(PostgresReportRow(row))
                    found[state.deviceKey] = state
                }
            }
            return found
        }
        var states: [String: DeviceState] = [:]
        for (key, state) in found { states[keyed[key]!] = state }
        return states
    }

    /// Devices sent pushes in the window by state, their stored states streamed on one connection (one statement,
    /// one snapshot), never collected.
    public func deviceStateCounts(_ query: DeviceStateQuery) async throws -> [DeviceStateCount] {
        let now = configuration.clock()
        let logger = logger
        do {
            return try await Self.withConnection(client, timeout: connectionTimeout) { connection in
                var tally = DeviceStateTally(query, nowMillis: now)
                let select = Queries.SelectDeviceStates(sentSince: tally.sentSince)
                for try await row in try await connection.query(PostgresQuery(select), logger: logger) {
                    tally.add(try select.row(PostgresReportRow(row)))
                }
                return tally.counts
            }
        } catch {
            throw PostgresFailure.surface(error)
        }
    }

    /// Finds the gone devices in one snapshot, then names the ones no message named yet in one transaction (a
    /// collector that found them too names none: ``Queries/ClaimGoneDevices``).
    public func notifyGoneDevices(nowMillis: Int64) async throws -> Int {
        let since = DeviceStateQuery().sinceMillis(nowMillis: nowMillis)
        let logger = logger
        let wanted = try await transaction { connection in try await PostgresOutbox.outbox(on: connection, logger: logger).wants(.deviceGone) }
        guard wanted else { return 0 }
        let states: [DeviceState] = try await readSnapshot { read in
            let query = Queries.SelectDeviceStates(sentSince: since)
            return try await read(PostgresQuery(query)).map { try query.row(PostgresReportRow($0)) }
        }
        let found = GoneDevices.found(states, nowMillis: nowMillis)
        guard !found.isEmpty else { return 0 }
        let (named, queued) = try await transaction { connection in
            var claimed: [DeviceState] = []
            for start in stride(from: 0, to: found.count, by: Queries.SelectDeviceStates.maxKeys) {
                let chunk = found[start..<min(start + Queries.SelectDeviceStates.maxKeys, found.count)]
                let claim = Queries.ClaimGoneDevices(keys: chunk.map(\.deviceKey), sinceMillis: since, nowMillis: nowMillis)
                let marked = Set(try await connection.fetch(claim, logger: logger))
                claimed += chunk.filter { marked.contains($0.deviceKey) }
            }
            let outbox = try await PostgresOutbox.outbox(on: connection, logger: logger)
            return (claimed.count, try await PostgresOutbox.queue(outbox.messages(forGone: claimed, at: nowMillis), on: connection, logger: logger))
        }
        StoreMetrics.recordQueued(deliveries: queued)
        return named
    }

    /// The stored states of `keys`, in chunks.
    private static func states(_ keys: [String], on connection: PostgresConnection, logger: Logger) async throws -> [String: DeviceState] {
        var stored: [String: DeviceState] = [:]
        for start in stride(from: 0, to: keys.count, by: Queries.SelectDeviceStates.maxKeys) {
            let chunk = Array(keys[start..<min(start + Queries.SelectDeviceStates.maxKeys, keys.count)])
            for state in try await connection.fetch(Queries.SelectDeviceStates(keys: chunk), logger: logger) {
                stored[state.deviceKey] = state
            }
        }
        return stored
    }
}

extension SQLBuilder {
    /// Binds a device state's value (texts and integers, either possibly NULL).
    fileprivate mutating func bindValue(_ value: QueryValue) -> String {
        switch value {
        case .integer(let integer): bind(integer)
        default: bind(value.textValue)
        }
    }
}

extension QueryValue {
    fileprivate var textValue: String? { if case .text(let text) = self { text } else { nil } }
}
