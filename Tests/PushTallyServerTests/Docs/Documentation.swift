import Foundation
import PushTallyTestSupport

/// The repository's Markdown documents, as the docs and example tests read them.
enum Documentation {
    static let root = PackageRoot.url

    /// `README.md`, then every Markdown file of `docs/`, as paths from the repository's root.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md"] + docs
    }

    static func text(_ document: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
    }
}
