import Foundation
import PushTallyTestSupport
import Testing

/// An app's package made from the manifest docs/KIT.md shows, depending on a copy of this package's working
/// tree by the URL the docs give (a SwiftPM mirror points that URL at the local copy): it must resolve and build
/// with this package as its only checkout, fetched from the local copy and nothing else. Its dependency cache
/// starts empty, so nothing is taken from an earlier resolution either.
@Suite struct KitConsumerTests {
    @Test func theDocumentedManifestResolvesThisPackageAloneAndBuilds() async throws {
        let manifest = try documentedManifest()
        let url = try #require(firstMatch(#"\.package\(url: "([^"]+)""#, in: manifest), "no .package(url:) in the manifest")
        let target = try #require(firstMatch(#"\.target\(name: "([^"]+)""#, in: manifest), "no .target(name:) in the manifest")
        let identity = try #require(URL(string: url)).deletingPathExtension().lastPathComponent.lowercased()

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pushtally-consumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let repository = work.appendingPathComponent(identity)
        let consumer = work.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: repository, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: consumer.appendingPathComponent("Sources/\(target)"), withIntermediateDirectories: true)

        // The working tree's files (tracked, and new ones git does not ignore; no build products) committed to a
        // repository of their own: SwiftPM fetches a URL dependency with git.
        try await run("/bin/bash", ["-c", """
            set -e -o pipefail
            git -C "$0" ls-files -z --cached --others --exclude-standard \
              | tar -C "$0" --null --files-from=- --ignore-failed-read -cf - | tar -C "$1" -xf -
            cd "$1" && git init -q -b main && git add -A
            git -c user.name=test -c user.email=test@example.invalid commit -q -m copy
            """, PackageRoot.url.path, repository.path])

        try manifest.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import PushTallyKit\n\nlet client: PushTallyClient.Type = PushTallyClient.self\n"
            .write(to: consumer.appendingPathComponent("Sources/\(target)/Extension.swift"), atomically: true, encoding: .utf8)
        try await run("/usr/bin/env", [
            "swift", "package", "--package-path", consumer.path, "config", "set-mirror",
            "--original", url, "--mirror", repository.absoluteURL.absoluteString,
        ])
        try await run("/usr/bin/env", [
            "swift", "build", "--package-path", consumer.path, "--cache-path", work.appendingPathComponent("cache").path,
        ])

        let checkouts = try FileManager.default.contentsOfDirectory(atPath: consumer.appendingPathComponent(".build/checkouts").path)
        #expect(checkouts == [identity])
        let resolved = try Data(contentsOf: consumer.appendingPathComponent("Package.resolved"))
        let pins = try #require((try JSONSerialization.jsonObject(with: resolved) as? [String: Any])?["pins"] as? [[String: Any]])
        #expect(pins.compactMap { $0["identity"] as? String } == [identity])
    }

    /// The one Swift block of docs/KIT.md that is a whole manifest.
    private func documentedManifest() throws -> String {
        let text = try String(contentsOf: PackageRoot.file("docs/KIT.md"), encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        let manifests = blocks.filter { $0.contains("let package = Package(") }
        try #require(manifests.count == 1, "docs/KIT.md shows \(manifests.count) manifests")
        return manifests[0] + "\n"
    }

    private func firstMatch(_ pattern: String, in text: String) -> String? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
            let range = Range(match.range(at: 1), in: text)
        else { return nil }
        return String(text[range])
    }

    /// Runs a command on a thread of its own; fails the test with its output when it fails.
    private func run(_ executable: String, _ arguments: [String]) async throws {
        let result = try await runProcess(executable, arguments, includingErrors: true)
        try #require(result.status == 0, "\(([executable] + arguments).joined(separator: " ")):\n\(result.output)")
    }
}
