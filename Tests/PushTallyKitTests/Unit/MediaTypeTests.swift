import Foundation
import Testing

@testable import PushTallyKit

@Suite struct MediaTypeTests {
    @Test func everyTypeAnAttachmentTakesIsNamedByItsExtension() throws {
        let expected: [(String, String, MediaType.Kind)] = [
            ("image/jpeg", "jpg", .image), ("image/png", "png", .image), ("image/gif", "gif", .image),
            ("audio/mpeg", "mp3", .audio), ("audio/x-wav", "wav", .audio), ("audio/wav", "wav", .audio),
            ("audio/aiff", "aiff", .audio), ("audio/x-aiff", "aiff", .audio), ("audio/mp4", "m4a", .audio),
            ("audio/x-m4a", "m4a", .audio), ("video/mp4", "mp4", .video), ("video/mpeg", "mpg", .video),
            ("video/avi", "avi", .video), ("video/x-msvideo", "avi", .video),
        ]
        for (mimeType, fileExtension, kind) in expected {
            let type = try #require(MediaType(contentType: mimeType), "\(mimeType)")
            #expect(type.fileExtension == fileExtension && type.kind == kind, "\(mimeType)")
        }
    }

    @Test func parametersAndCaseAreIgnoredAndOtherTypesRefused() {
        #expect(MediaType(contentType: "IMAGE/JPEG; charset=binary")?.fileExtension == "jpg")
        #expect(MediaType(contentType: " image/png ")?.mimeType == "image/png")
        for refused in ["text/html", "application/octet-stream", "image/webp", "image/svg+xml", "video/quicktime", ""] {
            #expect(MediaType(contentType: refused) == nil, "\(refused)")
        }
    }

    @Test func appleSizeLimitsPerKind() {
        #expect(MediaType.Kind.image.maxBytes == 10_000_000)
        #expect(MediaType.Kind.audio.maxBytes == 5_000_000)
        #expect(MediaType.Kind.video.maxBytes == 50_000_000)
    }

    @Test func outcomesAreTheReceiptsMediaValues() {
        #expect(MediaOutcome.allCases.map(\.rawValue) == ["none", "attached", "failed", "timed_out"])
    }
}
