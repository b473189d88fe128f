import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A downloaded media file, named with the extension of its type, ready to attach (`UNNotificationAttachment`
/// moves it into the notification's store).
public struct MediaFile: Sendable, Equatable {
    /// A file in the temporary directory, ending in `type.fileExtension`.
    public let url: URL
    /// What the host's `Content-Type` said it is.
    public let type: MediaType
    /// The file's size, within `type.kind.maxBytes`.
    public let byteCount: Int
}

/// How a download ended.
enum MediaDownloadResult: Sendable, Equatable {
    case file(MediaFile)
    case failed
    case timedOut
}

/// One media download under a deadline. The answer and the deadline arrive on URLSession's and Dispatch's own
/// queues (never through a task, so a busy cooperative pool cannot hold the deadline back), and so may a
/// `cancel()` from the extension's expiry: whichever comes first decides.
final class MediaDownload: @unchecked Sendable {
    private let first = FirstAnswer()
    // Guards `task`, `finish` and `cancelled`.
    private let lock = NSLock()
    private var cancelled = false
    private var task: URLSessionDownloadTask?
    private var finish: (@Sendable (MediaDownloadResult) -> Void)?

    /// Downloads `url` with `session` until `deadline`; a type notifications cannot show, an error status or a
    /// file over its kind's size limit is `.failed`, and no file is left behind then.
    func run(_ url: URL, session: URLSession, deadline: Date) async -> MediaDownloadResult {
        await withCheckedContinuation { (continuation: CheckedContinuation<MediaDownloadResult, Never>) in
            let first = first
            let finish: @Sendable (MediaDownloadResult) -> Void = { result in
                guard first.claim() else {
                    if case .file(let file) = result { try? FileManager.default.removeItem(at: file.url) }
                    return
                }
                continuation.resume(returning: result)
            }
            var request = URLRequest(url: url)
            // The deadline is kept by the timer below. The request's own timeout is only an idle timeout, which
            // Linux's URLSession rounds down to whole seconds (under one second fails at once), so it is no earlier.
            request.timeoutInterval = max(1, deadline.timeIntervalSinceNow.rounded(.up))
            let task = session.downloadTask(with: request) { location, response, error in
                if (error as? URLError)?.code == .timedOut { return finish(.timedOut) }
                // The file is checked and moved now: Apple's URLSession removes `location` when this returns.
                finish(Self.keep(location, response))
            }
            lock.lock()
            self.task = task
            self.finish = finish
            let cancelled = cancelled
            lock.unlock()
            guard !cancelled else { return finish(.timedOut) }
            DispatchQueue.global().asyncAfter(deadline: .now() + max(0, min(deadline.timeIntervalSinceNow, 3_600))) {
                // Claimed before the cancel, whose failure would otherwise race it as `.failed`.
                finish(.timedOut)
                task.cancel()
            }
            task.resume()
        }
    }

    /// Ends the download at once as `.timedOut` (the extension's time is up), if it has not ended yet.
    func cancel() {
        lock.lock()
        cancelled = true
        let task = task
        let finish = finish
        lock.unlock()
        finish?(.timedOut)
        task?.cancel()
    }

    /// Moves a finished download to a file named for its type, or removes it and fails: Linux's URLSession
    /// leaves `location` in the temporary directory, so a refused download must not outlive this call.
    static func keep(_ location: URL?, _ response: URLResponse?) -> MediaDownloadResult {
        guard let location else { return .failed }
        guard let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode),
            let type = MediaType(contentType: http.value(forHTTPHeaderField: "Content-Type") ?? http.mimeType ?? ""),
            let size = (try? FileManager.default.attributesOfItem(atPath: location.path))?[.size] as? NSNumber,
            size.intValue > 0, size.intValue <= type.kind.maxBytes
        else {
            try? FileManager.default.removeItem(at: location)
            return .failed
        }
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("pushtally-media-\(UUID().uuidString).\(type.fileExtension)")
        do {
            try FileManager.default.moveItem(at: location, to: destination)
        } catch {
            try? FileManager.default.removeItem(at: location)
            return .failed
        }
        return .file(MediaFile(url: destination, type: type, byteCount: size.intValue))
    }
}
