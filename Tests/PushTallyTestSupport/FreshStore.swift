import Foundation
import PushTallyCore
import PushTallyStores

/// A fresh, empty store of one kind for a test, and the place it lives: a temporary folder of the test's own
/// (the SQLite file, the device secret, whatever else the test writes) and, on PostgreSQL, a new database on
/// the server `PUSHTALLY_TEST_POSTGRES` names (see ``TestPostgres``). Every test that needs a store of a
/// ``StoreKind`` starts here, so both engines are set up alike:
///
/// ```swift
/// try await FreshStore.with(.postgres) { fresh in
///     let store = try await fresh.open(StoreConfiguration(clock: clock.function))
///     defer { store.closeInBackground() }
///     …
/// }
/// ```
///
/// ``withFreshStore(_:_:options:_:)`` opens the one store a test most often needs; ``open(_:options:)`` opens
/// as many as a test wants on the same database (collectors of one PostgreSQL database, a SQLite file reopened);
/// ``location``, ``sqlitePath`` and ``secretPath`` hand the same place to an engine's own initialiser or to a
/// `pushtally` process.
public struct FreshStore: Sendable {
    public let kind: StoreKind
    /// The test's own temporary folder, removed by ``remove()``.
    public let directory: URL
    /// The PostgreSQL database's URL; `nil` on SQLite.
    public let postgresURL: String?

    /// The SQLite file (also where a `pushtally serve` started on ``directory`` keeps its database).
    public var sqlitePath: String { directory.appendingPathComponent("pushtally.sqlite").path }
    /// The device secret's file on PostgreSQL, which every collector of the database must share (SQLite keeps
    /// its secret beside its file).
    public var secretPath: String { directory.appendingPathComponent("device.secret").path }

    /// The store's location, as `--database` names it.
    public var location: StoreLocation {
        postgresURL.map { StoreLocation.postgres(url: $0) } ?? .sqlite(path: sqlitePath)
    }

    /// What `--database` gets: the PostgreSQL URL, or the SQLite file.
    public var database: String { postgresURL ?? sqlitePath }

    /// A commit timeout the suite's own load cannot trip: tests that are not about the deadline must not be
    /// answered 503 because two cores are busy with the rest of the suite. Tests about it set their own, or drive
    /// the writer with a commit that never ends.
    public static let patientCommitTimeout: Duration = .seconds(600)

    /// The options test stores open with: keyed device ids (the secret in ``directory`` on PostgreSQL), a
    /// small PostgreSQL pool, since tests run in parallel against one server, and ``patientCommitTimeout``.
    public func options(_ configuration: StoreConfiguration = StoreConfiguration()) -> StoreOptions {
        var options = StoreOptions()
        options.configuration = configuration
        options.needsDeviceSecret = true
        options.deviceSecretPath = kind == .postgres ? secretPath : nil
        options.maximumConnections = 4
        options.commitTimeout = Self.patientCommitTimeout
        return options
    }

    /// Opens a store here through ``StoreFactory`` (as `serve` and the CLI open theirs); `options` may change
    /// ``options(_:)`` before it does (writers, connections, commit timeout). The caller closes it.
    public func open(
        _ configuration: StoreConfiguration = StoreConfiguration(), options change: (inout StoreOptions) -> Void = { _ in }
    ) async throws -> any PushTallyStore {
        var options = self.options(configuration)
        change(&options)
        return try await StoreFactory.open(location, options)
    }

    /// Makes the folder and, on PostgreSQL, the database; every call must be matched by ``remove()``.
    /// `name` goes into the folder's name, for whoever looks in the temporary folder while a test runs.
    public static func make(_ kind: StoreKind, name: String = "test") async throws -> FreshStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            let postgresURL = kind == .postgres ? try await TestPostgres.createDatabase() : nil
            return FreshStore(kind: kind, directory: directory, postgresURL: postgresURL)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    /// Removes the folder and drops the database (closing whatever connections are still open to it).
    public func remove() async {
        try? FileManager.default.removeItem(at: directory)
        if let postgresURL { await TestPostgres.dropDatabase(postgresURL) }
    }

    /// Runs `body` with a fresh place for a store of `kind`, removed afterwards whichever way `body` ends.
    @discardableResult
    public static func with<T>(_ kind: StoreKind, name: String = "test", _ body: (FreshStore) async throws -> T) async throws -> T {
        let fresh = try await make(kind, name: name)
        do {
            let result = try await body(fresh)
            await fresh.remove()
            return result
        } catch {
            await fresh.remove()
            throw error
        }
    }
}

/// Runs `body` with a fresh store of `kind` opened with `configuration` (and ``FreshStore/options(_:)``, which
/// `options` may change); the store is closed (``StoreLifecycle/closeInBackground()``) and its files and
/// database removed afterwards.
@discardableResult
public func withFreshStore<T>(
    _ kind: StoreKind, _ configuration: StoreConfiguration = StoreConfiguration(),
    options change: (inout StoreOptions) -> Void = { _ in }, _ body: (any PushTallyStore) async throws -> T
) async throws -> T {
    try await FreshStore.with(kind) { fresh in
        let store = try await fresh.open(configuration, options: change)
        defer { store.closeInBackground() }
        return try await body(store)
    }
}
