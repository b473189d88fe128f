import ArgumentParser
import Foundation
import PushTallyAPI
import PushTallyCore

/// Where reports come from: the database directly, or a running server (`--server URL --token T`).
struct SourceOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(help: "Ask a running server instead of reading the file (env PUSHTALLY_SERVER), e.g. http://127.0.0.1:8080.")
    var server: String?

    @Option(help: "Token for --server, read or admin role (env PUSHTALLY_TOKEN).")
    var token: String?

    /// Whether the commands go to a server (`--server` or `PUSHTALLY_SERVER`) rather than the database.
    var isRemote: Bool { (server ?? environment("PUSHTALLY_SERVER")) != nil }

    enum Source {
        case database(any PushTallyStore)
        case server(PushTallyAPIClient)
    }

    /// - Parameters:
    ///   - mustExist: whether a missing database file is an error (exit 3) rather than a new database.
    ///   - needsDeviceSecret: whether the command keys raw device ids (the device timeline).
    func open(mustExist: Bool = true, needsDeviceSecret: Bool = false) async throws -> Source {
        if let server = server ?? environment("PUSHTALLY_SERVER") {
            guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
                throw ValidationError("--server must be an http(s) URL, not \(server)")
            }
            return .server(PushTallyAPIClient(baseURL: url, token: token ?? environment("PUSHTALLY_TOKEN")))
        }
        return .database(try await database.open(mustExist: mustExist, needsDeviceSecret: needsDeviceSecret))
    }
}

extension SourceOptions.Source {
    /// The report's table: the rows the renderers and the terminal table draw from.
    /// - Parameter reads: a read replica beside the database (`--read-database`), if one was named.
    func table(_ request: ReportRequest, reads: ReportReadRouter? = nil) async throws -> ReportTable {
        switch self {
        case .database(let store): try await Self.local(request, on: store, reads: reads)
        case .server(let client): try await Self.remote { try await client.report(request) }
        }
    }

    /// The report rendered as CSV or JSON, exactly as the HTTP API renders it.
    func text(_ request: ReportRequest, json: Bool, bom: Bool, reads: ReportReadRouter? = nil) async throws -> String {
        switch self {
        case .database(let store):
            let table = try await Self.local(request, on: store, reads: reads)
            return json ? String(decoding: JSONRenderer.render(table), as: UTF8.self) : CSVRenderer.render(table, bom: bom)
        case .server(let client):
            return try await Self.remote { try await client.reportText(request, json: json, bom: bom) }
        }
    }

    /// Closes the database, if that is where the commands went.
    func shutdown() async {
        if case .database(let store) = self { await store.shutdown() }
    }

    private static func local(_ request: ReportRequest, on store: any ReportReader, reads: ReportReadRouter?) async throws -> ReportTable {
        do {
            guard let reads else { return try await store.report(request) }
            return try await reads.read { reader in try await reader.report(request) }.value
        } catch let error as ReportNotFound {
            printError(error.description)
            throw Exit.notFound
        } catch let error as FieldError {
            throw ValidationError(error.message)
        }
    }

    /// Runs a call to the server, mapping its failures to the CLI's exit codes.
    static func remote<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as PushTallyAPIError {
            printError(error.description)
            switch error {
            case .refused(status: 404, _, _): throw Exit.notFound
            case .refused(status: 400, _, _): throw ExitCode.validationFailure
            default: throw Exit.storeFailure
            }
        }
    }
}
