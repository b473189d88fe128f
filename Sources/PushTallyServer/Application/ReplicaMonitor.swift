import Logging
import Metrics
import PushTallyCore
import ServiceLifecycle

/// Samples the read replica's lag in the background (``ReportReadRouter/sample()``), so reports never wait on a
/// replica that has gone away, and exports it: `pushtally_read_replica_up` and
/// `pushtally_read_replica_lag_seconds`. Closes the replica at shutdown. Does nothing without a replica.
struct ReplicaMonitor: Service {
    let reads: ReportReadRouter
    let interval: Duration
    let logger: Logger

    func run() async throws {
        guard let replica = reads.replica else {
            // A service that returns early stops the whole group: wait for the shutdown like the others.
            try? await gracefulShutdown()
            return
        }
        try? await cancelWhenGracefulShutdown {
            var wasServing: Bool?
            while !Task.isCancelled {
                let state = await reads.sample()
                Gauge(label: "pushtally_read_replica_up").record(state?.reachable == true ? 1 : 0)
                if let lag = state?.lagSeconds { Gauge(label: "pushtally_read_replica_lag_seconds").record(lag) }
                let serving = reads.currentSource.source == .replica
                if serving != wasServing {
                    if serving {
                        logger.info("reports are read from the replica", metadata: ["replica": "\(replica.location)"])
                    } else {
                        logger.warning(
                            "reports are read from the primary: the replica is unreachable or lags more than --max-read-lag",
                            metadata: [
                                "replica": "\(replica.location)", "lag_seconds": "\(state?.lagSeconds.map { "\($0)" } ?? "unknown")",
                            ])
                    }
                    wasServing = serving
                }
                try await Task.sleep(for: interval)
            }
        }
        await replica.shutdown()
    }
}
