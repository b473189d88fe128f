import ArgumentParser
import Foundation
import PushTallyCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where reports come from: the database file directly, or a running server (`--server URL --token T`).
struct SourceOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(help: "Ask a running server instead of reading the file (env PUSHTALLY_SERVER), e.g. http://127.0.0.1:8080.")
    var server: String?

    @Option(help: "Token for --server, read or admin role (env PUSHTALLY_TOKEN).")
    var token: String?

    enum Source {
        case database(any PushTallyStore)
        case server(URL, token: String?)
    }

    /// - Parameter mustExist: whether a missing database file is an error (exit 3) rather than a new database.
    func open(mustExist: Bool = true) async throws -> Source {
        if let server = server ?? environment("PUSHTALLY_SERVER") {
            guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https" else {
                throw ValidationError("--server must be an http(s) URL, not \(server)")
            }
            return .server(url, token: token ?? environment("PUSHTALLY_TOKEN"))
        }
        return .database(try await database.open(mustExist: mustExist))
    }
}

extension SourceOptions.Source {
    /// The report rendered as CSV or JSON, exactly as the HTTP API renders it.
    func fetch(_ request: ReportRequest, json: Bool, bom: Bool) async throws -> String {
        switch self {
        case .database(let store):
            let table: ReportTable
            do {
                table = try await store.report(request)
            } catch let error as ReportNotFound {
                printError(error.description)
                throw Exit.notFound
            } catch let error as FieldError {
                throw ValidationError(error.message)
            }
            return json ? String(decoding: JSONRenderer.render(table), as: UTF8.self) : CSVRenderer.render(table, bom: bom)
        case .server(let base, let token):
            var (path, query) = request.httpPath()
            query.append(URLQueryItem(name: "format", value: json ? "json" : "csv"))
            if bom { query.append(URLQueryItem(name: "bom", value: "1")) }
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
            components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
            components.queryItems = query
            let data = try await send(URLRequest(url: components.url!), token: token)
            return String(decoding: data, as: UTF8.self)
        }
    }

    func close() {
        if case .database(let store) = self { store.close() }
    }
}

/// Sends a request to a PushTally server; an unreachable server is exit code 4.
func exchange(_ request: URLRequest, token: String?) async throws -> (status: Int, data: Data) {
    var request = request
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    do {
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    } catch {
        printError("cannot reach \(request.url?.absoluteString ?? "server"): \(error.localizedDescription)")
        throw Exit.storeFailure
    }
}

/// Sends a request to a PushTally server and maps its errors to the CLI's exit codes.
func send(_ request: URLRequest, token: String?) async throws -> Data {
    let (status, data) = try await exchange(request, token: token)
    try checkStatus(status, data)
    return data
}

/// Prints the server's error message and throws the matching exit code, unless `status` is a 2xx.
func checkStatus(_ status: Int, _ data: Data) throws {
    guard (200..<300).contains(status) else {
        let message = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["message"] as? String
        printError("server answered \(status): \(message ?? String(decoding: data.prefix(200), as: UTF8.self))")
        switch status {
        case 404: throw Exit.notFound
        case 400: throw ExitCode.validationFailure
        default: throw Exit.storeFailure
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
