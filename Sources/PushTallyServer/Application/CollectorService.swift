import Hummingbird
import Logging
import ServiceLifecycle

/// Runs the collector until SIGTERM or SIGINT, and exits within systemd's stop timeout (`TimeoutStopSec=30`
/// in `deploy/pushtally.service`) whatever the database does.
///
/// A graceful shutdown answers what is in flight and commits what was queued; each of those steps is bounded
/// on its own (the writer's watchdog, the connection and commit timeouts). These bounds are the last resort
/// for anything still waiting on a server that stopped answering (a report's read, say): after 20 s of
/// graceful shutdown the services are cancelled, which closes the connections they wait on, and a service
/// that still has not returned 5 s later ends the process. Nothing acknowledged is lost by it: a 2xx is only
/// sent after its commit.
public func runCollector(_ app: some ApplicationProtocol, logger: Logger) async throws {
    var configuration = ServiceGroupConfiguration(
        services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    configuration.maximumGracefulShutdownDuration = .seconds(20)
    configuration.maximumCancellationDuration = .seconds(5)
    try await ServiceGroup(configuration: configuration).run()
}
