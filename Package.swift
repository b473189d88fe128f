// swift-tools-version:6.1
import PackageDescription

/// A product of one of the server's dependencies, used only with the `Server` trait on. Every reference to a
/// dependency goes through this, so a package that depends on this one with `traits: []` (docs/KIT.md) resolves
/// and fetches none of them: SwiftPM leaves out a dependency whose every use is behind a trait that is off.
func server(_ product: String, _ package: String) -> Target.Dependency {
    .product(name: product, package: package, condition: .when(traits: ["Server"]))
}

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
    // On by default, so this package builds, tests and releases the collector as it is; an app turns it off to get
    // PushTallyKit (Foundation only) and nothing else.
    traits: [
        .trait(name: "Server", description: "The collector, its stores, CLI and benchmarks: every dependency below."),
        .default(enabledTraits: ["Server"]),
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
                server("Crypto", "swift-crypto"),
                server("Metrics", "swift-metrics"),
                server("Logging", "swift-log"),
            ]
        ),
        // The embedded default engine: one SQLite file (GRDB), the SQLite dialect of the core's store roles.
        .target(
            name: "PushTallySQLite",
            dependencies: [
                "PushTallyCore", server("GRDB", "GRDB.swift"),
                // SQLite's C API, for the writer's hot statements (BoundStatement).
                server("GRDBSQLite", "GRDB.swift"),
                "CSQLiteSettings",
            ]
        ),
        // Process-wide SQLite settings, made through `sqlite3_config` (variadic: not callable from Swift).
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // The PostgreSQL engine, for many collectors on one database (postgres-nio).
        .target(
            name: "PushTallyPostgres",
            dependencies: [
                "PushTallyCore",
                server("PostgresNIO", "postgres-nio"),
                server("NIOPosix", "swift-nio"),
                server("NIOConcurrencyHelpers", "swift-nio"),
                server("NIOSSL", "swift-nio-ssl"),
                server("Logging", "swift-log"),
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
        // (getaddrinfo on NIO's thread pool, as it blocks); gzip inflated member by member (request bodies
        // and import-events), through the system zlib; and the event feed written to files (`export --out`).
        .target(
            name: "PushTallyUseCases",
            dependencies: ["PushTallyCore", "CZlib", server("NIOPosix", "swift-nio"), server("CompressNIO", "compress-nio")]
        ),
        // The system zlib (zlib1g-dev), for inflating gzip member by member (request bodies, import-events):
        // compress-nio inflates one member and cannot tell a stream that ended from one cut short.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(
            name: "PushTallyServer",
            dependencies: [
                "PushTallyCore",
                "PushTallyUseCases",
                server("Hummingbird", "hummingbird"),
                server("HummingbirdCore", "hummingbird"),
                server("HummingbirdTLS", "hummingbird"),
                server("HTTPTypes", "swift-http-types"),
                server("Metrics", "swift-metrics"),
                server("Prometheus", "swift-prometheus"),
                server("NIOCore", "swift-nio"),
                server("NIOHTTPTypes", "swift-nio-extras"),
                // The fast path reads HTTP/1 heads before Hummingbird's codec makes HTTPTypes of them.
                server("NIOHTTP1", "swift-nio"),
                server("NIOHTTPTypesHTTP1", "swift-nio-extras"),
                server("CompressNIO", "compress-nio"),
                server("ServiceLifecycle", "swift-service-lifecycle"),
                server("Logging", "swift-log"),
                // Webhook deliveries: pooled HTTP/1.1 and TLS, redirects off, each host pinned to the address
                // the SSRF check approved (its dnsOverride).
                server("AsyncHTTPClient", "async-http-client"),
                server("NIOPosix", "swift-nio"),
                server("NIOConcurrencyHelpers", "swift-nio"),
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
                server("ArgumentParser", "swift-argument-parser"),
                server("CompressNIO", "compress-nio"),
                server("NIOCore", "swift-nio"),
                "CBuildStamp",
            ]
        ),
        // The version text scripts/build-release writes into the release binary (`pushtally --version`).
        .target(name: "CBuildStamp"),
        // Benchmarks, run by scripts/bench (never by the test suite).
        .executableTarget(
            name: "BareDurableBaseline",
            dependencies: [
                server("GRDB", "GRDB.swift"),
                server("NIOCore", "swift-nio"),
                server("NIOPosix", "swift-nio"),
                server("NIOHTTP1", "swift-nio"),
            ],
            path: "Benchmarks/BareDurableBaseline"
        ),
        .executableTarget(
            name: "StoreBenchmark",
            dependencies: ["PushTallyCore", "PushTallySQLite", server("GRDB", "GRDB.swift")],
            path: "Benchmarks/StoreBenchmark"
        ),
        // The client library an app and its Notification Service Extension embed: Foundation only, so it builds
        // with the `Server` trait off.
        .target(name: "PushTallyKit"),
        // Starts real `pushtally serve` processes for the test suites that need one.
        .target(
            name: "PushTallyTestSupport",
            dependencies: [
                "PushTallyStores",
                "PushTallyPostgres",
                server("PostgresNIO", "postgres-nio"),
                server("NIOPosix", "swift-nio"),
                server("Logging", "swift-log"),
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
            dependencies: ["PushTallyKit", "PushTallyTestSupport", server("GRDB", "GRDB.swift")],
            resources: [.copy("Fixtures")]
        ),
        // The rules alone: no engine in this test target's graph.
        .testTarget(
            name: "PushTallyCoreTests",
            dependencies: ["PushTallyCore", "PushTallyTestSupport", server("InMemoryLogging", "swift-log")]
        ),
        // Every store test runs on both engines.
        .testTarget(
            name: "PushTallyStoreTests",
            dependencies: [
                "PushTallyCore", "PushTallySQLite", "PushTallyPostgres", "PushTallyStores", "PushTallyTestSupport",
                server("GRDB", "GRDB.swift"), server("PostgresNIO", "postgres-nio"),
            ],
            // Read by path: the schemas released versions shipped.
            exclude: ["Fixtures"]
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
                server("HummingbirdTesting", "hummingbird"),
                server("GRDB", "GRDB.swift"),
            ],
            resources: [.copy("Fixtures")]
        ),
    ]
)
