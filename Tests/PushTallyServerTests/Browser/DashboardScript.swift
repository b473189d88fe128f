import Foundation
import PushTallyTestSupport
import Testing

/// Runs one of `Tests/browser`'s Selenium scripts against a running dashboard, as every browser test of it
/// does: a read token is created with the CLI (the scripts sign in through the dashboard's form with it), the
/// script gets the server's address, the token and `arguments`, and what it saw is its last JSON line.
struct DashboardScript {
    /// The script's output, standard error included (for failure messages).
    let log: String
    /// The script's last JSON object.
    let output: [String: Any]

    /// Runs `script` (a path) against `server`, whose database is `database` (`server`'s own by default).
    init(
        _ script: String, on server: ServerProcess, database: String? = nil, arguments: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let created = try await runPushtally(["keys", "create", "--role", "read", "--database", database ?? server.databasePath])
        #expect(created.status == 0, "\(created.stderr)", sourceLocation: sourceLocation)
        let readToken = created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let run = try await runProcess(
            "/usr/bin/env", ["python3", script, server.baseURL.absoluteString, readToken] + arguments, includingErrors: true)
        #expect(run.status == 0, "\(run.output)", sourceLocation: sourceLocation)
        let jsonLine = run.output.split(separator: "\n").last { $0.hasPrefix("{") }.map(String.init) ?? "{}"
        log = run.output
        output = try #require(
            try JSONSerialization.jsonObject(with: Data(jsonLine.utf8)) as? [String: Any], "\(run.output)", sourceLocation: sourceLocation)
    }
}
