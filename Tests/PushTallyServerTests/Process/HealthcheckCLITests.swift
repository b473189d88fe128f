import Foundation
import Hummingbird
import HummingbirdTesting
import PushTallyTestSupport
import Testing

/// `pushtally healthcheck` (a container's HEALTHCHECK) against a real collector and a real `/healthz` that fails,
/// and `pushtally --version` of a binary no release script stamped.
@Suite(.serialized) struct HealthcheckCLITests {
    @Test func aRunningCollectorIsHealthyByFlagAndByEnvironment() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let byFlag = try await runPushtally(["healthcheck", "--port", String(server.port)])
        #expect(byFlag.status == 0, "\(byFlag.stderr)")
        #expect(byFlag.stdout.hasPrefix("200 "), "\(byFlag.stdout)")
        #expect(byFlag.stdout.contains(#""status":"ok""#), "\(byFlag.stdout)")
        // The image sets PUSHTALLY_PORT for serve; the health check reads the same variable.
        let byEnvironment = try await runPushtally(["healthcheck"], environment: ["PUSHTALLY_PORT": String(server.port)])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stderr)")
        #expect(byEnvironment.stdout.contains(#""status":"ok""#), "\(byEnvironment.stdout)")
        #expect(try await server.stop() == 0)

        let stopped = try await runPushtally(["healthcheck", "--port", String(server.port)])
        #expect(stopped.status == 1)
        #expect(stopped.stderr.contains("no answer from http://127.0.0.1:\(server.port)/healthz"), "\(stopped.stderr)")
    }

    @Test func anUnhealthyAnswerExitsOne() async throws {
        let router = Router()
        router.get("healthz") { _, _ in
            Response(
                status: .serviceUnavailable, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"status":"unwritable"}"#)))
        }
        try await Application(router: router).test(.live) { client in
            let port = try #require(client.port)
            let answer = try await runPushtally(["healthcheck", "--port", String(port)])
            #expect(answer.status == 1)
            #expect(answer.stdout == "503 {\"status\":\"unwritable\"}\n", "\(answer.stdout)")
        }
    }

    @Test func badSettingsAreRefusedAsBadArguments() async throws {
        let port = try await runPushtally(["healthcheck"], environment: ["PUSHTALLY_PORT": "eighty"])
        #expect(port.status == 64)
        #expect(port.stderr.contains("PUSHTALLY_PORT must be a number"), "\(port.stderr)")
        let range = try await runPushtally(["healthcheck", "--port", "70000"])
        #expect(range.status == 64)
    }

    @Test func aBinaryNoReleaseScriptStampedSaysSo() async throws {
        let version = try await runPushtally(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("development build ("), "\(version.stdout)")
    }
}
