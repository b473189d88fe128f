import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyKit

/// A display's media against a local media host, each ending in exactly one display receipt in the outbox
/// (the collector is a port that refuses connections, so what the display recorded stays there to be read).
@Suite struct MediaDisplayTests {
    @Test func aFastImageIsAttachedUnderItsTypesExtensionAndRecordedOnce() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        let display = try OfflineDisplay(["push_id": "p1", "image": media.file("image/jpeg", bytes: 2048)])
        defer { display.removeFiles() }
        var attached: [MediaFile] = []
        let outcome = await display.display.run { file in
            #expect(FileManager.default.fileExists(atPath: file.url.path))
            attached.append(file)
        }
        #expect(outcome == .attached)
        try #require(attached.count == 1)
        #expect(attached[0].url.pathExtension == "jpg")
        #expect(attached[0].type.mimeType == "image/jpeg" && attached[0].type.kind == .image)
        #expect(attached[0].byteCount == 2048)
        try? FileManager.default.removeItem(at: attached[0].url)
        let receipt = try display.onlyReceipt()
        #expect(receipt.push_id == "p1" && receipt.media == "attached" && receipt.action == nil)
        let milliseconds = try #require(receipt.extension_ms)
        #expect((0...60_000).contains(milliseconds))
        // The extension's expiry after the display ended records nothing more.
        #expect(display.display.timeWillExpire() == false)
        #expect(try display.onlyReceipt() == receipt)
        #expect(display.display.outcome == .attached)
        // Nor does running it again.
        #expect(await display.display.run { _ in Issue.record("a display attaches once") } == .attached)
        #expect(try display.onlyReceipt() == receipt)
    }

    @Test func anErrorAnswerANonMediaTypeAndFilesOverTheLimitsFail() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        for url in [
            media.url("/missing.jpg"),
            media.file("text/html", bytes: 100),
            media.file("image/png", bytes: MediaType.Kind.image.maxBytes + 1),
            media.file("audio/mpeg", bytes: MediaType.Kind.audio.maxBytes + 1),
            media.file("image/png", bytes: 0),
            "ftp://example.com/image.jpg",
        ] {
            let display = try OfflineDisplay(["push_id": "p2", "image": url])
            defer { display.removeFiles() }
            var attachCalls = 0
            #expect(await display.display.run { _ in attachCalls += 1 } == .failed, "\(url)")
            #expect(attachCalls == 0, "\(url)")
            #expect(try display.onlyReceipt().media == "failed", "\(url)")
            #expect(display.display.timeWillExpire() == false)
            #expect(try display.receipts().count == 1, "\(url)")
        }
    }

    @Test func anImageSlowerThanTheBudgetTimesOut() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        var options = PushTallyClient.MediaOptions()
        options.timeout = 0.5  // the host never answers: any budget runs out
        let display = try OfflineDisplay(["push_id": "p3", "image": media.url("/slow")], options: options)
        defer { display.removeFiles() }
        var attachCalls = 0
        #expect(await display.display.run { _ in attachCalls += 1 } == .timedOut)
        #expect(attachCalls == 0)
        #expect(try display.onlyReceipt().media == "timed_out")
        #expect(display.display.timeWillExpire() == false)
        #expect(try display.receipts().count == 1)
    }

    @Test func theExtensionsExpiryRecordsTimedOutAtOnceAndTheDownloadRecordsNothingMore() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        var options = PushTallyClient.MediaOptions()
        options.timeout = 600
        let display = try OfflineDisplay(["push_id": "p4", "aps": ["alert": ["image": media.url("/slow")]]], options: options)
        defer { display.removeFiles() }
        var arrivals = media.arrivals.makeAsyncIterator()
        let running = Task { await display.display.run { _ in Issue.record("nothing arrived to attach") } }
        #expect(await arrivals.next() == "/slow")  // the download is under way
        #expect(display.display.timeWillExpire())
        // Recorded before timeWillExpire returned, with no network: the collector refuses connections.
        let receipt = try display.onlyReceipt()
        #expect(receipt.media == "timed_out" && receipt.push_id == "p4")
        #expect((0...60_000).contains(try #require(receipt.extension_ms)))
        #expect(await running.value == .timedOut)  // the download was cancelled, not left to its budget
        #expect(display.display.timeWillExpire() == false)
        #expect(try display.onlyReceipt() == receipt)
    }

    @Test func anExpiryBeforeTheDisplayStartedItsDownloadStillRecordsOnce() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        let display = try OfflineDisplay(["push_id": "p5", "image": media.file("image/gif", bytes: 64)])
        defer { display.removeFiles() }
        #expect(display.display.timeWillExpire())
        #expect(await display.display.run { _ in Issue.record("an expired display attaches nothing") } == .timedOut)
        #expect(try display.onlyReceipt().media == "timed_out")
    }

    @Test func aPushWithoutMediaRecordsNone() async throws {
        let display = try OfflineDisplay(["push_id": "p6", "aps": ["alert": ["title": "Hi"]]])
        defer { display.removeFiles() }
        #expect(await display.display.run { _ in Issue.record("no media to attach") } == .none)
        #expect(try display.onlyReceipt().media == "none")
    }

    @Test func aFailedAttachmentIsFailedAndItsFileRemoved() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        let display = try OfflineDisplay(["push_id": "p7", "image": media.file("video/mp4", bytes: 512)])
        defer { display.removeFiles() }
        struct Refused: Error {}
        var file: MediaFile?
        #expect(await display.display.run { file = $0; throw Refused() } == .failed)
        #expect(file?.url.pathExtension == "mp4")
        #expect(file.map { FileManager.default.fileExists(atPath: $0.url.path) } == false)
        #expect(try display.onlyReceipt().media == "failed")
    }

    @Test func theMediaKeyPathsAreConfigurable() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        var options = PushTallyClient.MediaOptions()
        options.keyPaths = [["data", "media_url"]]
        let payload: [AnyHashable: Any] = [
            "push_id": 8, "image": media.url("/missing.jpg"), "data": ["media_url": media.file("audio/x-wav", bytes: 300)],
        ]
        let display = try OfflineDisplay(payload, options: options)
        defer { display.removeFiles() }
        var file: MediaFile?
        #expect(await display.display.run { file = $0 } == .attached)
        #expect(file?.url.pathExtension == "wav" && file?.type.kind == .audio)
        file.map { try? FileManager.default.removeItem(at: $0.url) }
        #expect(try display.onlyReceipt().push_id == "8")
    }

    @Test func aPayloadWithoutPushIDStillGetsItsMediaAndRecordsNothing() async throws {
        let media = try MediaServer()
        defer { media.stop() }
        let display = try OfflineDisplay(["image": media.file("image/png", bytes: 128)])
        defer { display.removeFiles() }
        var file: MediaFile?
        #expect(await display.display.run { file = $0 } == .attached)
        #expect(file?.url.pathExtension == "png")
        file.map { try? FileManager.default.removeItem(at: $0.url) }
        #expect(try display.receipts().isEmpty)
    }
}

/// A display whose client's collector refuses connections, so its receipt stays in the outbox.
struct OfflineDisplay {
    let store: URL
    let client: PushTallyClient
    let display: NotificationDisplay

    init(_ payload: [AnyHashable: Any], options: PushTallyClient.MediaOptions = PushTallyClient.MediaOptions()) throws {
        store = try temporaryStore()
        client = try PushTallyClient(
            endpoint: URL(string: "http://127.0.0.1:\(refusingLoopbackPort)")!, storeDirectory: store,
            configuration: kitConfiguration())
        display = client.beginDisplay(userInfo: payload, media: options)
    }

    /// The receipts queued in the outbox, oldest first.
    func receipts() throws -> [ReceiptEvent] {
        try client.outbox.names().map { name in
            guard case .receipt(let receipt) = try #require(client.outbox.read(name)) else {
                throw TestFailure("\(name) is not a receipt")
            }
            return receipt
        }
    }

    func onlyReceipt() throws -> ReceiptEvent {
        let receipts = try receipts()
        try #require(receipts.count == 1, "\(receipts.count) receipts queued")
        return receipts[0]
    }

    func removeFiles() {
        try? FileManager.default.removeItem(at: store)
    }
}
