import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyKit

/// What a display posts: its receipt with `media` and `extension_ms`, read under the client's URLSession, and
/// taken by the real collector.
@Suite struct MediaReceiptPostingTests {
    @Test func theReceiptIsPostedWithMediaAndExtensionTime() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let endpoint = standInEndpoint()
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0))
        let display = client.beginDisplay(userInfo: ["push_id": "2018001", "image": media.file("image/jpeg", bytes: 1024)])
        var file: MediaFile?
        #expect(await display.run { file = $0 } == .attached)
        file.map { try? FileManager.default.removeItem(at: $0.url) }
        let exchanges = RecordingURLProtocol.exchanges(for: endpoint)
        try #require(exchanges.count == 1)
        #expect(exchanges[0].path == "/v1/receipts")
        let line = try #require(try exchanges[0].objects().first)
        #expect(line["push_id"] as? String == "2018001")
        #expect(line["media"] as? String == "attached")
        let milliseconds = try #require(line["extension_ms"] as? Int)
        #expect((0...60_000).contains(milliseconds))
        #expect(client.outbox.names().isEmpty)
    }

    @Test func receiptsWithoutADisplayCarryNeitherField() async throws {
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let endpoint = standInEndpoint()
        let client = try recordingClient(store, endpoint: endpoint, .accept(failingFirst: 0))
        await client.recordDisplay(userInfo: ["push_id": "1"])
        await client.recordAction(identifier: "com.apple.UNNotificationDefaultActionIdentifier", userInfo: ["push_id": "1"])
        let lines = try RecordingURLProtocol.exchanges(for: endpoint).flatMap { try $0.objects() }
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0["media"] == nil && $0["extension_ms"] == nil })
    }

    @Test func theCollectorTakesADisplaysReceipts() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let media = try MediaServer()
        defer { media.stop() }
        let store = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: store) }
        let client = try recordingClient(store, endpoint: server.baseURL, .forward(losingFirst: 0))
        let attached = client.beginDisplay(userInfo: ["push_id": "9", "image": media.file("image/png", bytes: 256)])
        var file: MediaFile?
        #expect(await attached.run { file = $0 } == .attached)
        file.map { try? FileManager.default.removeItem(at: $0.url) }
        let expired = client.beginDisplay(userInfo: ["push_id": "9"])
        #expect(expired.timeWillExpire())
        await client.flush()
        #expect(try await server.stop() == 0)
        let exchanges = RecordingURLProtocol.exchanges(for: server.baseURL)
        #expect(exchanges.map(\.status) == [200, 200])
        #expect(try exchanges.map { try $0.batchAnswer() }.map(\.accepted) == [1, 1])
        #expect(client.outbox.names().isEmpty)
    }
}
