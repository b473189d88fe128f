import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOSSL
import Logging
import NIOCore
import PushTallyCore
import PushTallyUseCases
import ServiceLifecycle

/// The router with every PushTally route, and the list of what it registered.
public func buildRouter(
    configuration: ServerConfiguration, store: any PushTallyStore
) -> (router: Router<PushTallyRequestContext>, routes: [RouteDescription]) {
    let built = buildRoutes(configuration: configuration, store: store)
    return (built.router, built.routes)
}

/// The router, what it registered, and the ingest pipeline the fast path shares with it.
/// - Parameter reads: where reports are read; the store itself unless given.
func buildRoutes(
    configuration: ServerConfiguration, store: any PushTallyStore, reads: ReportReadRouter? = nil
) -> (router: Router<PushTallyRequestContext>, routes: [RouteDescription], ingest: IngestPipeline) {
    ServerMetrics.bootstrap()
    let router = Router(context: PushTallyRequestContext.self, options: .autoGenerateHeadEndpoints)
    let routes = RouteTable(router: router)
    let deadlines = configuration.storeDeadlines
    let authorizer = Authorizer(store: store, deadlines: deadlines)
    let reader = BodyReader(maxBytes: configuration.maxBodyBytes)
    let limiter = configuration.ingestRateLimit.map {
        RateLimiter(limit: $0, trustedProxies: Set(configuration.trustedProxies))
    }
    let ingest = IngestPipeline(store: store, authorizer: authorizer, configuration: configuration, reader: reader, limiter: limiter)
    // Before the middlewares, which Hummingbird wraps around the routes registered after them: the ingest
    // pipeline answers its errors and counts its answers itself, as it does on the fast path.
    IngestController<PushTallyRequestContext>(pipeline: ingest).register(on: routes)
    router.add(middleware: RequestMetricsMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    PushController(store: store, authorizer: authorizer, reader: reader, maxBatch: configuration.maxBatchEvents, deadlines: deadlines)
        .register(on: routes)
    let fcmReader = BodyReader(maxBytes: FCMDeliveryController<PushTallyRequestContext>.maxBodyBytes)
    FCMDeliveryController(store: store, authorizer: authorizer, reader: fcmReader, deadlines: deadlines).register(on: routes)
    let deliveryReader = BodyReader(maxBytes: DeliveryController<PushTallyRequestContext>.maxBodyBytes)
    DeliveryController(store: store, authorizer: authorizer, reader: deliveryReader, deadlines: deadlines).register(on: routes)
    DeviceStatesController(store: store, authorizer: authorizer, reader: deliveryReader, clock: store.configuration.clock, deadlines: deadlines)
        .register(on: routes)
    ReportController(reads: reads ?? ReportReadRouter(primary: store), authorizer: authorizer, deadlines: deadlines).register(on: routes)
    WebhookController(
        store: store, authorizer: authorizer, reader: reader,
        management: WebhookManagement(
            store: store, urlGuard: WebhookURLGuard(allowPrivate: configuration.allowPrivateWebhooks),
            clock: store.configuration.clock),
        deadlines: deadlines
    ).register(on: routes)
    AlertController(store: store, authorizer: authorizer, reader: reader, deadlines: deadlines).register(on: routes)
    DeviceController(store: store, authorizer: authorizer, deadlines: deadlines).register(on: routes)
    EventFeedController(
        store: store, authorizer: authorizer, deadlines: deadlines, idleTimeout: .seconds(configuration.idleTimeoutSeconds)
    ).register(on: routes)
    HealthController(store: store).register(on: routes)
    MetricsController(store: store, deadlines: deadlines).register(on: routes)
    DashboardController().register(on: routes)
    routes.addMethodNotAllowedResponders()
    if configuration.cors.isEnabled { router.add(middleware: CORSPreflightMiddleware(policy: configuration.cors)) }
    return (router, routes.routes, ingest)
}

/// The whole collector: HTTP server plus the service that commits acknowledged writes on shutdown.
///
/// Services stop in reverse order, so the HTTP server finishes its in-flight requests before the store
/// closes, and every request that got a 2xx is committed.
/// - Parameter readReplica: a streaming standby of `store` to read reports from (`serve --read-database`);
///   it is closed with the application.
/// - Throws: when the TLS certificate or key cannot be read.
public func buildApplication(
    configuration: ServerConfiguration, store: any PushTallyStore, readReplica: (any ReadReplica)? = nil,
    logger: Logger = Logger(label: "pushtally"), onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let reads = ReportReadRouter(primary: store, replica: readReplica, maxLagSeconds: configuration.maxReadLagSeconds)
    let (router, _, ingest) = buildRoutes(configuration: configuration, store: store, reads: reads)
    // The fast path keeps every connection's idle and slow-client clock, so Hummingbird's is off.
    let registry = ConnectionRegistry()
    let shared = IngestFastPath.Shared(
        pipeline: ingest, answersIngest: configuration.ingestFastPath,
        limits: ConnectionClock.Limits(
            idleTimeout: .seconds(Int64(configuration.idleTimeoutSeconds)), minimumBytesPerSecond: Int64(configuration.minBodyBytesPerSecond),
            requestTimeout: .seconds(Int64(configuration.bodyTimeoutSeconds))),
        logger: logger, registry: registry)
    var server = HTTPServerBuilder { responder in
        FastPathHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: .init(idleTimeout: nil)), shared: shared)
    }
    if let (certificatePath, keyPath) = configuration.tls {
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificatePath).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: keyPath, format: .pem)))
        server = try .tls(server, tlsConfiguration: tls)
    }
    return Application(
        router: router,
        server: server,
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port), serverName: "PushTally",
            // Thousands of clients may connect at once (a fleet reconnecting); past a full accept queue the
            // kernel drops their SYNs, and each retries only a second or more later. The kernel caps this at
            // net.core.somaxconn.
            backlog: 4096,
            availableConnectionsDelegate: EvictingConnectionLimit(maximum: configuration.maxConnections, registry: registry)),
        services: [
            StoreService(store: store), ReplicaMonitor(reads: reads, interval: configuration.replicaSampleInterval, logger: logger), RetentionService(store: store, configuration: configuration, logger: logger),
            WebhookDispatcher(store: store, clock: store.configuration.clock, configuration: configuration, logger: logger),
            AlertScheduler(store: store, intervalSeconds: configuration.alertIntervalSeconds, logger: logger),
            DeviceStateWatch(
                reader: reads, store: store, clock: store.configuration.clock, intervalSeconds: configuration.deviceGaugeIntervalSeconds,
                logger: logger),
        ],
        onServerRunning: { channel in
            // Sampled once before the server says it is listening, so its first reports already go to a
            // current replica; the monitor keeps the sample fresh from then on.
            await reads.sample()
            await onServerRunning(channel.localAddress?.port ?? configuration.port)
        },
        logger: logger
    )
}

/// Keeps the store open while the server runs and closes it (committing the writer's queue) at shutdown.
struct StoreService: Service {
    let store: any StoreLifecycle

    func run() async throws {
        try? await gracefulShutdown()
        await store.shutdown()
    }
}

/// Prunes raw events past the retention window in the background, in small batches, until shutdown.
struct RetentionService: Service {
    let store: any StoreMaintenance & ReportReader
    let configuration: ServerConfiguration
    let logger: Logger

    func run() async throws {
        guard let retention = configuration.retentionMillis else { return }
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    let pruned = try await store.prune(
                        receivedBefore: Self.cutoff(now: store.configuration.clock(), retentionMillis: retention),
                        batchSize: MaintenancePlan.batchSize)
                    if pruned > 0 { logger.info("pruned raw events past retention", metadata: ["count": "\(pruned)"]) }
                } catch is CancellationError {
                    return
                } catch {
                    logger.warning("retention prune failed; will retry", metadata: ["error": "\(error)"])
                }
                try await Task.sleep(for: .seconds(configuration.pruneIntervalSeconds))
            }
        }
    }

    /// What a prune at `now` deletes before: the start of the UTC day the window ends in. Retention keeps whole
    /// days so that PostgreSQL drops each day partition whole once the window has passed all of it, instead of
    /// thinning the oldest day row by row every hour until its partition is empty; raw events are kept up to a
    /// day past the window.
    static func cutoff(now: Int64, retentionMillis: Int64) -> Int64 {
        let day: Int64 = 86_400_000
        let end = now - retentionMillis
        return end - ((end % day) + day) % day
    }
}
