import Foundation

/// A PostgreSQL cluster of a test's own (Debian's `pg_createcluster`), on a port of its own, for faults that
/// would hurt every other test on the shared one: freezing the server with SIGSTOP, or stopping it.
///
/// Needs root (as CI and the project's machines run the suite). Every test that makes one must call
/// ``drop()`` whichever way it ends; `drop()` thaws the server first, so a frozen cluster never outlives it.
public final class ThrowawayCluster: Sendable {
    public static let version = "15"
    public let name: String
    public let port: Int

    /// The URL of its `pushtally` database, for the `pushtally` role.
    public var url: String { "postgres://pushtally:pushtally@127.0.0.1:\(port)/pushtally" }

    private init(name: String, port: Int) {
        self.name = name
        self.port = port
    }

    /// `body` given a new cluster, dropped afterwards whichever way `body` ends.
    public static func with(_ body: (ThrowawayCluster) async throws -> Void) async throws {
        let cluster = try await create()
        do {
            try await body(cluster)
        } catch {
            await cluster.drop()
            throw error
        }
        await cluster.drop()
    }

    /// A collector on this cluster's database, with files of its own under a folder named for `label` and the
    /// production store deadlines; not started.
    public func collector(_ label: String, extraArguments: [String] = []) throws -> ServerProcess {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-\(label)-\(UUID().uuidString)")
        return try ServerProcess(
            directory: directory, database: url,
            extraArguments: ["--device-secret", directory.appendingPathComponent("device.secret").path] + extraArguments,
            deadlines: .production)
    }

    /// Creates and starts a cluster with a `pushtally` role owning a `pushtally` database.
    public static func create() async throws -> ThrowawayCluster {
        let cluster = ThrowawayCluster(name: "pt_\(UUID().uuidString.prefix(8).lowercased())", port: try freePort())
        do {
            try await cluster.run("pg_createcluster", version, cluster.name, "-p", "\(cluster.port)")
            try await cluster.run("pg_ctlcluster", version, cluster.name, "start")
            try await cluster.psql("CREATE ROLE pushtally LOGIN PASSWORD 'pushtally'")
            try await cluster.psql("CREATE DATABASE pushtally OWNER pushtally")
        } catch {
            await cluster.drop()
            throw error
        }
        return cluster
    }

    /// The postmaster and every process it started (backends and background workers).
    public func serverProcesses() throws -> [Int32] {
        let pidFile = "/var/run/postgresql/\(Self.version)-\(name).pid"
        guard let text = try? String(contentsOfFile: pidFile, encoding: .utf8),
            let postmaster = text.split(separator: "\n").first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) })
        else { throw TestFailure("no postmaster pid in \(pidFile)") }
        return [postmaster] + children(of: postmaster)
    }

    /// Stops every process of the server (SIGSTOP): it keeps its sockets, the kernel still accepts and
    /// acknowledges, and nothing answers. The postmaster first, so it starts no process meanwhile.
    public func freeze() throws {
        for pid in try serverProcesses() { kill(pid, SIGSTOP) }
        // A child forked between the listing and the postmaster's stop.
        for pid in try serverProcesses() { kill(pid, SIGSTOP) }
    }

    /// Lets every process of the server go on (SIGCONT).
    public func thaw() {
        for pid in (try? serverProcesses()) ?? [] { kill(pid, SIGCONT) }
    }

    /// Stops the server at once (`-m immediate`: no checkpoint, every backend killed, as a crash or a failover
    /// leaves it); ``start()`` brings it back through crash recovery.
    public func stopImmediately() async throws {
        try await run("pg_ctlcluster", Self.version, name, "stop", "-m", "immediate")
    }

    /// Starts the server again after ``stopImmediately()``.
    public func start() async throws {
        try await run("pg_ctlcluster", Self.version, name, "start")
    }

    /// Thaws, stops and deletes the cluster; never throws, so it can run on every path out of a test.
    public func drop() async {
        thaw()
        _ = try? await run("pg_dropcluster", Self.version, name, "--stop")
    }

    /// Runs a statement as the `postgres` superuser over the cluster's socket.
    public func psql(_ sql: String) async throws {
        try await run("runuser", "-u", "postgres", "--", "psql", "-p", "\(port)", "-v", "ON_ERROR_STOP=1", "-Atqc", sql)
    }

    private func run(_ arguments: String...) async throws {
        let (status, output) = try await runProcess("/usr/bin/env", arguments, includingErrors: true)
        guard status == 0 else { throw TestFailure("\(arguments.joined(separator: " ")) failed (\(status)): \(output)") }
    }

    private func children(of parent: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // Fields after the command's closing parenthesis: state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == parent
        }
    }

    /// A TCP port nothing listens on now, from the kernel's ephemeral range.
    private static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("socket() failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("bind() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
