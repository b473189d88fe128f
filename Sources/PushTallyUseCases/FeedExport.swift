import CompressNIO
import Foundation
import NIOCore
import NIOPosix
import PushTallyCore

/// `pushtally export --out DIR`: the event feed after a cursor written as numbered files (gzip NDJSON or
/// Parquet) with a `manifest.json`, from the database or through a server (any ``EventFeedReader``).
///
/// Each file is written aside, synced and renamed into place, then the manifest is replaced the same way: the
/// manifest is the only record of what was exported, and it lists only whole files. A run killed at any point
/// leaves at most a file the manifest does not list, which the next run writes again under the same name; a
/// run goes on after the manifest's last cursor, so running it twice adds only what committed in between, and
/// nothing is lost or written twice.
public struct FeedExport: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case ndjson, parquet

        var fileExtension: String { self == .ndjson ? "ndjson.gz" : "parquet" }
    }

    /// What a run did.
    public struct Outcome: Sendable {
        public var files: [FeedManifest.File]
        public var manifest: FeedManifest
    }

    public let directory: URL
    public let format: Format
    /// The most rows a file holds.
    public let rowsPerFile: Int
    /// What the Parquet files name as their writer.
    public let createdBy: String
    public var clock: @Sendable () -> Int64 = StoreConfiguration.systemClock

    public init(directory: URL, format: Format, rowsPerFile: Int, createdBy: String) {
        self.directory = directory
        self.format = format
        self.rowsPerFile = rowsPerFile
        self.createdBy = createdBy
    }

    /// Writes every event committed after the manifest's last cursor (or `after`, for a new directory) into files.
    /// - Throws: ``FieldError`` when the directory holds an export of another format, or one that `after`
    ///   contradicts.
    public func run(from reader: any EventFeedReader, after: EventCursor?) async throws -> Outcome {
        let directory = directory
        try await Self.onFiles { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        var manifest = try await existingManifest() ?? FeedManifest(fileFormat: format.rawValue, after: after, nowMillis: clock())
        guard manifest.file_format == format.rawValue else {
            throw FieldError(
                "conflict", "\(directory.path) holds a \(manifest.file_format) export; write \(format.rawValue) files to another directory",
                field: "format")
        }
        var cursor = try manifest.resumeCursor()
        if let after, after != cursor {
            throw FieldError(
                "conflict", "\(directory.path) holds an export up to \(cursor.text); leave out --after to go on from there, or write to another directory",
                field: "after")
        }
        var written: [FeedManifest.File] = []
        while true {
            var events: [ExportedEvent] = []
            while events.count < rowsPerFile {
                let page = try await reader.eventFeed(after: cursor, limit: min(EventFeedPage.maximumLimit, rowsPerFile - events.count))
                events += page.events
                cursor = page.cursor
                if page.events.isEmpty { break }
            }
            guard !events.isEmpty else { break }
            let name = String(format: "events-%06d.%@", manifest.files.count + 1, format.fileExtension)
            let bytes = try encode(events)
            try await Self.writeDurably(bytes, to: directory.appendingPathComponent(name), in: directory)
            manifest.add(name, events: events, bytes: bytes, nowMillis: clock())
            try await Self.writeDurably(Array(try manifest.text().utf8), to: directory.appendingPathComponent(FeedManifest.fileName), in: directory)
            written.append(manifest.files[manifest.files.count - 1])
            if events.count < rowsPerFile { break }
        }
        if written.isEmpty, try await existingManifest() == nil {
            try await Self.writeDurably(Array(try manifest.text().utf8), to: directory.appendingPathComponent(FeedManifest.fileName), in: directory)
        }
        return Outcome(files: written, manifest: manifest)
    }

    /// Runs `body`'s file calls (reads, writes, syncs) on NIO's thread pool, never on Swift's cooperative pool.
    private static func onFiles<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive(body)
    }

    private func existingManifest() async throws -> FeedManifest? {
        let url = directory.appendingPathComponent(FeedManifest.fileName)
        guard let data = try await Self.onFiles({ FileManager.default.fileExists(atPath: url.path) ? try Data(contentsOf: url) : nil })
        else { return nil }
        let manifest = try JSONDecoder().decode(FeedManifest.self, from: data)
        guard manifest.format == FeedManifest.formatName else {
            throw FieldError("conflict", "\(url.path) is not a PushTally export manifest", field: "out")
        }
        return manifest
    }

    private func encode(_ events: [ExportedEvent]) throws -> [UInt8] {
        switch format {
        case .ndjson:
            var text = ByteBuffer()
            for event in events { text.writeString(try ExportFormat.line(event)) }
            return Array(try text.compress(with: .gzip()).readableBytesView)
        case .parquet:
            return try ParquetFile.bytes(events, codec: .gzip { page in
                var buffer = ByteBuffer(bytes: page)
                return Array(try buffer.compress(with: .gzip()).readableBytesView)
            }, createdBy: createdBy)
        }
    }

    /// Writes `bytes` beside `url`, syncs them, renames them onto `url` and syncs `directory`, so after a crash
    /// the name holds the old bytes or the new, whole.
    static func writeDurably(_ bytes: [UInt8], to url: URL, in directory: URL) async throws {
        try await onFiles { try writeDurablyNow(bytes, to: url, in: directory) }
    }

    private static func writeDurablyNow(_ bytes: [UInt8], to url: URL, in directory: URL) throws {
        let aside = directory.appendingPathComponent(".\(url.lastPathComponent).partial")
        guard FileManager.default.createFile(atPath: aside.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: aside.path])
        }
        let handle = try FileHandle(forWritingTo: aside)
        try handle.write(contentsOf: Data(bytes))
        try handle.synchronize()
        try handle.close()
        guard rename(aside.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let folder = open(directory.path, O_RDONLY)
        guard folder >= 0 else { return }
        defer { close(folder) }
        _ = fsync(folder)
    }
}
