import Foundation
import Testing

@testable import PushTallyKit

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What happens to the file a download task hands over: kept under its type's extension, or removed. Linux's
/// URLSession leaves that file behind, so a refused download that is not removed here stays in `/tmp`.
@Suite struct MediaDownloadKeepTests {
    private static func downloaded(bytes: Int) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-keep-test-\(UUID().uuidString).tmp")
        try Data(repeating: 0xA5, count: bytes).write(to: file)
        return file
    }

    private static func response(_ status: Int, _ contentType: String) -> HTTPURLResponse? {
        HTTPURLResponse(url: URL(string: "https://media.example/a")!, statusCode: status, httpVersion: "HTTP/1.1",
                        headerFields: ["Content-Type": contentType])
    }

    @Test func aRefusedDownloadLeavesNoFile() throws {
        let refused: [(String, Int, HTTPURLResponse?)] = [
            ("404", 64, Self.response(404, "image/png")),
            ("not media", 64, Self.response(200, "text/html")),
            ("empty", 0, Self.response(200, "image/png")),
            ("over the audio limit", MediaType.Kind.audio.maxBytes + 1, Self.response(200, "audio/mpeg")),
            ("no response", 64, nil),
        ]
        for (name, bytes, response) in refused {
            let file = try Self.downloaded(bytes: bytes)
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(MediaDownload.keep(file, response) == .failed, "\(name)")
            #expect(!FileManager.default.fileExists(atPath: file.path), "\(name): the refused download is still there")
        }
    }

    @Test func anAcceptedDownloadIsMovedUnderItsTypesExtension() throws {
        let file = try Self.downloaded(bytes: 300)
        defer { try? FileManager.default.removeItem(at: file) }
        guard case .file(let kept) = MediaDownload.keep(file, Self.response(200, "image/gif")) else {
            Issue.record("a 300-byte GIF is kept")
            return
        }
        defer { try? FileManager.default.removeItem(at: kept.url) }
        #expect(kept.url.pathExtension == "gif" && kept.byteCount == 300)
        #expect(FileManager.default.fileExists(atPath: kept.url.path))
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}
