import Foundation

/// The media types a notification attachment can carry (`UNNotificationAttachment`'s supported file types),
/// keyed by MIME type, with the file extension iOS identifies each by and Apple's size limit for its kind.
public struct MediaType: Sendable, Equatable {
    /// Apple's kinds of attachment, each with its own size limit.
    public enum Kind: String, Sendable {
        case image, audio, video

        /// The largest file of this kind an attachment takes: images 10 MB, audio 5 MB, video 50 MB.
        public var maxBytes: Int {
            switch self {
            case .image: 10_000_000
            case .audio: 5_000_000
            case .video: 50_000_000
            }
        }
    }

    /// The MIME type, lowercased and without parameters (`image/jpeg`).
    public let mimeType: String
    /// The file extension iOS reads the attachment's type from (`jpg`).
    public let fileExtension: String
    /// Image, audio or video: which size limit applies.
    public let kind: Kind

    /// The type a `Content-Type` names (`image/jpeg`, `IMAGE/PNG; charset=binary`), or `nil` for one an
    /// attachment cannot carry.
    public init?(contentType: String) {
        let mimeType = contentType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let (fileExtension, kind) = Self.known[mimeType] else { return nil }
        self.mimeType = mimeType
        self.fileExtension = fileExtension
        self.kind = kind
    }

    /// Apple's list (JPEG, GIF, PNG; AIFF, WAV, MP3, MPEG-4 audio; MPEG, MPEG-2, MPEG-4 and AVI video) under the
    /// MIME types servers send for them, the registered ones and the common unregistered aliases.
    private static let known: [String: (String, Kind)] = [
        "image/jpeg": ("jpg", .image), "image/jpg": ("jpg", .image), "image/pjpeg": ("jpg", .image),
        "image/png": ("png", .image), "image/gif": ("gif", .image),
        "audio/aiff": ("aiff", .audio), "audio/x-aiff": ("aiff", .audio),
        "audio/wav": ("wav", .audio), "audio/x-wav": ("wav", .audio), "audio/wave": ("wav", .audio),
        "audio/vnd.wave": ("wav", .audio),
        "audio/mpeg": ("mp3", .audio), "audio/mp3": ("mp3", .audio), "audio/mpeg3": ("mp3", .audio),
        "audio/x-mpeg-3": ("mp3", .audio),
        "audio/mp4": ("m4a", .audio), "audio/x-m4a": ("m4a", .audio), "audio/m4a": ("m4a", .audio),
        "video/mpeg": ("mpg", .video), "video/mpeg2": ("mpg", .video), "video/mp4": ("mp4", .video),
        "video/avi": ("avi", .video), "video/x-msvideo": ("avi", .video), "video/msvideo": ("avi", .video),
    ]
}
