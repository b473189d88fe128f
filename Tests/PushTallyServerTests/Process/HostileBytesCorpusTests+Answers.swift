import Foundation
import PushTallyTestSupport

/// How the corpus reads what the server answered and stored, and makes its gzip bodies.
extension HostileBytesCorpusTests {
    struct Answer {
        let status: Int
        let error: String?
        let closes: Bool
    }

    /// Each response in `text`, framed by its `Content-Length`: its status, its JSON body's `error` (nil
    /// without one; a batch answer's errors are per element) and whether it says `Connection: close`.
    static func answers(in text: String) -> [Answer] {
        let bytes = Array(text.utf8)
        let separator = Array("\r\n\r\n".utf8)
        var start = 0
        var found: [Answer] = []
        while bytes[start...].starts(with: "HTTP/1.1 ".utf8),
            let end = (start...(bytes.count - separator.count)).first(where: { bytes[$0..<$0 + separator.count].elementsEqual(separator) })
        {
            let head = String(decoding: bytes[start..<end], as: UTF8.self).lowercased()
            let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
            let bodyStart = end + separator.count
            let bodyEnd = min(bytes.count, bodyStart + length)
            let json = (try? JSONSerialization.jsonObject(with: Data(bytes[bodyStart..<bodyEnd]))) as? [String: Any]
            found.append(Answer(status: Int(head.dropFirst(9).prefix(3)) ?? 0, error: json?["error"] as? String, closes: head.contains("connection: close")))
            start = bodyEnd
            guard start + separator.count <= bytes.count else { break }
        }
        return found
    }

    static func displayed(_ pushID: String, on server: ServerProcess) async throws -> Int {
        let report = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/pushes/\(pushID)"), headers: ["Authorization": "Bearer \(server.adminToken)"])
        guard report.status == 200 else { return 0 }
        let rows = (try JSONSerialization.jsonObject(with: report.body) as? [String: Any])?["pushes"] as? [[String: Any]]
        return rows?.first?["displayed"] as? Int ?? 0
    }

    /// `bytes` as one gzip member, by the system's gzip (not the code under test), run on a thread of its own.
    static func gzip(_ bytes: [UInt8]) async throws -> [UInt8] {
        try await blocking { try blockingGzip(bytes) }
    }

    private static func blockingGzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-gzip-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body")
        try Data(bytes).write(to: file)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", file.path]
        try process.run()
        process.blockUntilExit()
        return Array(try Data(contentsOf: directory.appendingPathComponent("body.gz")))
    }
}
