import PushTallyCore

/// How the HTTP server runs; every default is what a fresh `pushtally serve` uses.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Require an `ingest` (or `admin`) token on the ingest routes (receipts, actions, sessions, conversions). Off by
    /// default: apps cannot keep secrets.
    public var requireIngestKey: Bool
    /// Largest request body, on the wire and again after gzip inflation.
    public var maxBodyBytes: Int
    /// Most events in one batch request.
    public var maxBatchEvents: Int
    /// Seconds a connection may sit idle (no request in progress, or a request stalled) before it is closed,
    /// so idle and slow clients cannot hold connections forever.
    public var idleTimeoutSeconds: Int
    /// Bytes a second a request's body must arrive at on average, after a grace of the idle timeout
    /// (`serve --min-body-rate`): a client that trickles a body is closed.
    public var minBodyBytesPerSecond = 500
    /// Seconds a request may take from its head to its last byte, however steadily it arrives
    /// (`serve --body-timeout`).
    public var bodyTimeoutSeconds = 60
    /// Open connections beyond which the server stops accepting new ones until some close.
    public var maxConnections: Int
    /// Raw events older than this are pruned (their counts fold into the ledger); `nil` keeps them forever.
    public var retentionMillis: Int64?
    /// How often the retention task runs.
    public var pruneIntervalSeconds: Int = 3600
    /// Ingest requests (receipts, actions, sessions, conversions) per second per client IP (token bucket); `nil`
    /// (the default) is no limit.
    public var ingestRateLimit: RateLimiter.Limit?
    /// PEM certificate chain and private key files: serve HTTPS (iOS App Transport Security refuses plain HTTP).
    public var tls: (certificatePath: String, keyPath: String)?
    /// Peers whose `X-Forwarded-For` is believed (reverse proxies); everyone else is their TCP address.
    public var trustedProxies: [String] = []
    /// Answer the ingest routes on the event loop (``IngestFastPath``) rather than through the router: the same
    /// code and promises, at less cost a request (docs/PERFORMANCE.md). Off only to compare the two
    /// (`serve --no-fast-path`).
    public var ingestFastPath = true
    /// Let webhook URLs reach loopback, private, link-local and other special-purpose addresses (`serve --allow-private-webhooks`).
    public var allowPrivateWebhooks = false
    /// When failed webhook deliveries are retried, and for how long.
    public var webhookRetry = WebhookRetryPolicy()
    /// Delivered (and given-up) webhook messages are deleted after this long.
    public var webhookRetentionMillis: Int64 = 7 * 86_400_000
    /// Seconds between alert evaluations (`serve --alert-interval`).
    public var alertIntervalSeconds: Double = 60
    /// Seconds between counts of the devices' states for `pushtally_devices` and `device.gone` webhooks
    /// (`serve --device-gauge-interval`).
    public var deviceGaugeIntervalSeconds: Double = 300
    /// Web origins whose pages and service workers may post events (`serve --cors-origin`); none by default.
    public var cors = CORSPolicy(origins: [])
    /// The most a read replica may trail its primary before reports are read from the primary
    /// (`serve --max-read-lag`).
    public var maxReadLagSeconds: Double = 30
    /// How often the read replica's lag is sampled.
    public var replicaSampleInterval: Duration = .seconds(1)
    /// Ingest requests handed to the store and not yet answered, beyond which ingest answers 503 at once:
    /// a database that slows or stops must not gather requests (and their sockets) without end.
    public var maxIngestInFlight = 4096
    /// How long a request outside ingest waits on the store before it is answered 503 (`serve --store-timeout`).
    public var storeDeadlines = StoreDeadlines()

    public init(
        host: String = "127.0.0.1", port: Int = 8080, requireIngestKey: Bool = false, maxBodyBytes: Int = 4 << 20,
        maxBatchEvents: Int = 10_000, idleTimeoutSeconds: Int = 30, maxConnections: Int = 8192,
        retentionMillis: Int64? = 90 * 86_400_000
    ) {
        self.retentionMillis = retentionMillis
        self.host = host
        self.port = port
        self.requireIngestKey = requireIngestKey
        self.maxBodyBytes = maxBodyBytes
        self.maxBatchEvents = maxBatchEvents
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxConnections = maxConnections
    }
}
