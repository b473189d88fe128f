// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "PushTally",
    // Platforms are package-wide. macOS 14 is what the server and its dependencies need. iOS 15, watchOS 8
    // and tvOS 15 are what PushTallyKit (the only target meant for them) needs: its newest API is
    // URLSession's async `data(for:delegate:)` (iOS 15, watchOS 8, tvOS 15, macOS 12); every other call is
    // older (flock, FileManager, JSONEncoder's .sortedKeys: iOS 11; ProcessInfo.operatingSystemVersion: iOS 8;
    // UserNotifications: iOS 10, watchOS 3, and left out on tvOS where its types lack userInfo). Checked by
    // reading, as Linux cannot build for them; docs/KIT.md says the same.
    platforms: [.macOS(.v14), .iOS(.v15), .watchOS(.v8), .tvOS(.v15)],
    products: [
        .library(name: "PushTallyCore", targets: ["PushTallyCore"]),
        .library(name: "PushTallySQLite", targets: ["PushTallySQLite"]),
        .library(name: "PushTallyPostgres", targets: ["PushTallyPostgres"]),
        .library(name: "PushTallyStores", targets: ["PushTallyStores"]),
        .library(name: "PushTallyAPI", targets: ["PushTallyAPI"]),
        .library(name: "PushTallyUseCases", targets: ["PushTallyUseCases"]),
        .library(name: "PushTallyServer", targets: ["PushTallyServer"]),
        .library(name: "PushTallyKit", targets: ["PushTallyKit"]),
        .executable(name: "pushtally", targets: ["pushtally"]),
        .executable(name: "bare-durable-baseline", targets: ["BareDurableBaseline"]),
        .executable(name: "pushtally-store-bench", targets: ["StoreBenchmark"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        // The rulebook: model, validation, dedupe, rollups, timing, lifecycle plans, report assembly, rendering
        // and the store role protocols. No HTTP and no database engine: the engines below only run its plans.
        .target(
            name: "PushTallyCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The embedded default engine: one SQLite file (GRDB), the SQLite dialect of the core's store roles.
        .target(
            name: "PushTallySQLite",
            dependencies: [
                "PushTallyCore", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the writer's hot statements (BoundStatement).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The PostgreSQL engine, for many collectors on one database (postgres-nio).
        .target(
            name: "PushTallyPostgres",
            dependencies: [
                "PushTallyCore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Opens the engine a database URL names (a path or sqlite: -> SQLite, postgres:// -> PostgreSQL).
        .target(
            name: "PushTallyStores",
            dependencies: ["PushTallyCore", "PushTallySQLite", "PushTallyPostgres"]
        ),
        // A typed client of the HTTP API, on the core's request and answer types (`pushtally --server`).
        .target(name: "PushTallyAPI", dependencies: ["PushTallyCore"]),
        // What the server's routes and the CLI's local path both do, so neither repeats the other and the CLI
        // needs no server to manage webhooks: webhook endpoints' creation (parse, SSRF check, id, secret,
        // store, JSON), listing and deliveries; the system's DNS resolver the core's SSRF rule checks with
        // (getaddrinfo on NIO's thread pool, as it blocks); and gzip inflated member by member (request bodies
        // and import-events), through the system zlib.
        .target(
            name: "PushTallyUseCases",
            dependencies: ["PushTallyCore", "CZlib", .product(name: "NIOPosix", package: "swift-nio")]
        ),
        // The system zlib (zlib1g-dev), for inflating gzip member by member (request bodies, import-events):
        // compress-nio inflates one member and cannot tell a stream that ended from one cut short.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(
            name: "PushTallyServer",
            dependencies: [
                "PushTallyCore",
                "PushTallyUseCases",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                // The fast path reads HTTP/1 heads before Hummingbird's codec makes HTTPTypes of them.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                // Webhook deliveries: pooled HTTP/1.1 and TLS, redirects off, each host pinned to the address
                // the SSRF check approved (its dnsOverride).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "pushtally",
            dependencies: [
                "PushTallyCore",
                "PushTallyUseCases",
                // For `serve` only.
                "PushTallyServer",
                "PushTallyStores",
                "PushTallyPostgres",
                "PushTallyAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        // Benchmarks, run by scripts/bench (never by the test suite).
        .executableTarget(
            name: "BareDurableBaseline",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Benchmarks/BareDurableBaseline"
        ),
        .executableTarget(
            name: "StoreBenchmark",
            dependencies: ["PushTallyCore", "PushTallySQLite", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/StoreBenchmark"
        ),
        // The client library an app and its Notification Service Extension embed: Foundation only.
        .target(name: "PushTallyKit"),
        // Starts real `pushtally serve` processes for the test suites that need one.
        .target(
            name: "PushTallyTestSupport",
            dependencies: [
                "PushTallyStores",
                "PushTallyPostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/PushTallyTestSupport"
        ),
        // A second OS process for PushTallyKitTests (the app beside its extension), built with the tests.
        .executableTarget(
            name: "PushTallyKitAppender",
            dependencies: ["PushTallyKit"],
            path: "Tests/PushTallyKitAppender"
        ),
        .testTarget(
            name: "PushTallyKitTests",
            dependencies: ["PushTallyKit", "PushTallyTestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            resources: [.copy("Fixtures")]
        ),
        // The rules alone: no engine in this test target's graph.
        .testTarget(
            name: "PushTallyCoreTests",
            dependencies: ["PushTallyCore"]
        ),
        // Every store test runs on both engines.
        .testTarget(
            name: "PushTallyStoreTests",
            dependencies: [
                "PushTallyCore", "PushTallySQLite", "PushTallyPostgres", "PushTallyStores", "PushTallyTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "PushTallyServerTests",
            dependencies: [
                "PushTallyServer",
                "PushTallyUseCases",
                "PushTallyCore",
                "PushTallySQLite",
                "PushTallyPostgres",
                "PushTallyStores",
                "PushTallyTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)
