import ArgumentParser
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Asks the collector on this machine for `/healthz`: a container's `HEALTHCHECK`, where no curl is at hand.
struct HealthcheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck",
        abstract: "Ask the collector on this machine whether it is healthy: exit 0 when GET /healthz answers 200, else 1.",
        discussion: """
            Prints the status and what /healthz answered. Made for a container's HEALTHCHECK: it reads the port from \
            PUSHTALLY_PORT as serve does, and asks 127.0.0.1 whatever address serve listens on (plain HTTP).
            """
    )

    @Option(help: "Port the collector listens on (env PUSHTALLY_PORT; default 8080).")
    var port: Int?

    @Option(help: "Address to ask.")
    var host = "127.0.0.1"

    @Option(help: "Seconds to wait for the answer.")
    var timeout: Double = 5

    func run() async throws {
        let port = try port ?? environment("PUSHTALLY_PORT").map { value in
            guard let port = Int(value) else { throw ValidationError("PUSHTALLY_PORT must be a number, not \(value)") }
            return port
        } ?? 8080
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be from 1 to 65535") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        guard let url = URL(string: "http://\(authority)/healthz") else { throw ValidationError("--host \(host) is no address") }
        let answer: (data: Data, response: URLResponse)
        do {
            answer = try await URLSession.shared.data(for: URLRequest(url: url, timeoutInterval: timeout))
        } catch {
            printError("no answer from \(url): \(error.localizedDescription)")
            throw ExitCode.failure
        }
        let status = (answer.response as? HTTPURLResponse)?.statusCode ?? 0
        print("\(status) \(String(decoding: answer.data.prefix(1000), as: UTF8.self))")
        if status != 200 { throw ExitCode.failure }
    }
}
