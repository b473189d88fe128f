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

    /// Runs `read` on the replica when the last sample allows it, else on the primary. A failure on the replica
    /// other than the report's own refusal (a missing push, a bad field) is retried on the primary.
    public func read<Value: Sendable>(_ read: (any ReportReader) async throws -> Value) async throws -> Answer<Value> {
        let (source, lag) = currentSource
        if source == .replica, let replica {
            do {
                return Answer(value: try await read(replica), source: .replica, lagSeconds: lag)
            } catch let refusal as ReportNotFound {
                throw refusal
            } catch let refusal as FieldError {
                throw refusal
            } catch {
                lock.withLock { sampled = ReplicaState(reachable: false, lagSeconds: nil) }
            }
        }
        return Answer(value: try await read(primary), source: .primary, lagSeconds: 0)
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
