import Foundation

/// Which database a report was read from (`PushTally-Read-Source`).
public enum ReadSource: String, Sendable {
    case primary, replica
}

/// Where report reads go: a read replica while it answers and trails the primary by at most
/// ``maxLagSeconds``, the primary otherwise (and always, without a replica). Ingest and every other write
/// never come here: they stay on the primary.
///
/// The replica's state is a sample (``sample()``) that a server refreshes in the background, so a report
/// never waits on a replica that has gone away; a read that fails on the replica is answered from the primary
/// and marks it down until the next good sample.
public final class ReportReadRouter: @unchecked Sendable {
    /// What the last sample of the replica found.
    public struct ReplicaState: Sendable, Equatable {
        /// Whether the replica answered the last sample (and no read has failed on it since).
        public var reachable: Bool
        /// Its lag at the last sample, in seconds; `nil` when it did not answer.
        public var lagSeconds: Double?
    }

    /// A report's table and where it came from.
    public struct Answer<Value: Sendable>: Sendable {
        public var value: Value
        public var source: ReadSource
        /// Seconds the data may trail the primary: the replica's sampled lag, 0 from the primary.
        public var lagSeconds: Double
    }

    public let primary: any ReportReader
    public let replica: (any ReadReplica)?
    /// The most a replica may trail before reports go to the primary (`--max-read-lag`).
    public let maxLagSeconds: Double
    // Guards `sampled`, the only mutable state (hence `@unchecked Sendable`).
    private let lock = NSLock()
    // Down until the first sample says otherwise: a replica never sampled is not trusted to be current.
    private var sampled = ReplicaState(reachable: false, lagSeconds: nil)

    public init(primary: any ReportReader, replica: (any ReadReplica)? = nil, maxLagSeconds: Double = 30) {
        self.primary = primary
        self.replica = replica
        self.maxLagSeconds = maxLagSeconds
    }

    /// The replica's state as last sampled; `nil` without a replica.
    public var replicaState: ReplicaState? {
        replica == nil ? nil : lock.withLock { sampled }
    }

    /// Asks the replica for its lag now and keeps the answer for the reads that follow.
    @discardableResult
    public func sample() async -> ReplicaState? {
        guard let replica else { return nil }
        let now: ReplicaState
        do {
            now = ReplicaState(reachable: true, lagSeconds: try await replica.replicationLagSeconds())
        } catch {
            now = ReplicaState(reachable: false, lagSeconds: nil)
        }
        lock.withLock { sampled = now }
        return now
    }

    /// Where the next read goes, by the last sample.
    public var currentSource: (source: ReadSource, lagSeconds: Double) {
        guard let current = replicaState, current.reachable, let lag = current.lagSeconds, lag <= maxLagSeconds else {
            return (.primary, 0)
        }
        return (.replica, lag)
    }

    /// Runs `read` on the replica when the last sample allows it, else on the primary.
    ///
    /// - The report's own errors (a missing push, a bad field, a total past 64 bits) and the end of the caller's
    ///   wait (its deadline or its client gone, which cancel it) say nothing of the replica: they are thrown as
    ///   they are, the replica stays in use, and the report is not run a second time.
    /// - A failure of the replica itself (``isReplicaFailure(_:)``) marks it down until the next good sample,
    ///   and the report is read from the primary.
    /// - Any other error (a statement the replica's older schema cannot run yet) is read again from the primary
    ///   without marking the replica down: whether it was the replica's fault, the primary's answer tells.
    public func read<Value: Sendable>(_ read: (any ReportReader) async throws -> Value) async throws -> Answer<Value> {
        let (source, lag) = currentSource
        if source == .replica, let replica {
            do {
                return Answer(value: try await read(replica), source: .replica, lagSeconds: lag)
            } catch where Task.isCancelled || Self.isTheReportsOwn(error) {
                throw error
            } catch where Self.isReplicaFailure(error) {
                lock.withLock { sampled = ReplicaState(reachable: false, lagSeconds: nil) }
            } catch {}
        }
        return Answer(value: try await read(primary), source: .primary, lagSeconds: 0)
    }

    /// Whether `error` says the database read from is at fault, not the report: it cannot be reached or did
    /// not answer in time (``StoreError/unavailable(reason:)``), its storage failed, or it holds a schema this
    /// collector cannot read.
    public static func isReplicaFailure(_ error: any Error) -> Bool {
        switch error {
        case StoreError.unavailable, StoreError.misconfigured, StoreError.databaseNewerThanCode: true
        case is any StorageUnavailableError: true
        default: false
        }
    }

    /// Whether `error` is the report's answer whatever database it is read from.
    static func isTheReportsOwn(_ error: any Error) -> Bool {
        error is ReportNotFound || error is FieldError || error is TotalOutOfRange || error is CancellationError
    }

    /// Seconds to the millisecond, without trailing zeros: `0`, `0.25`, `12.5`.
    public static func secondsText(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0" }
        var text = String(Int64((seconds * 1000).rounded()))
        while text.count < 4 { text = "0" + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -3))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
