import Foundation
import PushTallyTestSupport
import Testing

/// The README and `docs/*.md` hold together: their relative links and anchors resolve, and every `pushtally`
/// command they show is one the built binary has.
@Suite struct DocsTests {
    static let root = Documentation.root
    static func documents() throws -> [String] { try Documentation.documents() }
    static func text(_ document: String) throws -> String { try Documentation.text(document) }

    /// The document's lines, split into prose and fenced code (the fences themselves in neither).
    static func split(_ text: String) -> (prose: [String], code: [String]) {
        var prose: [String] = []
        var code: [String] = []
        var fenced = false
        for line in text.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                fenced.toggle()
            } else if fenced {
                code.append(line)
            } else {
                prose.append(line)
            }
        }
        return (prose, code)
    }

    /// The anchor GitHub gives a heading: lowercased, inline markup and punctuation dropped, spaces to hyphens.
    static func slug(_ heading: String) -> String {
        var slug = ""
        for character in heading.lowercased() {
            if character == " " {
                slug.append("-")
            } else if character == "-" || character == "_" || character.isLetter || character.isNumber {
                slug.append(character)
            }
        }
        return slug
    }

    /// Every anchor of a Markdown file's headings, a repeated heading numbered as GitHub numbers it (`-1`, `-2`).
    static func anchors(of text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        for line in split(text).prose {
            let hashes = line.prefix { $0 == "#" }.count
            guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { continue }
            let base = slug(line.dropFirst(hashes).trimmingCharacters(in: .whitespaces))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// The targets of inline links and images in prose: `[text](target)`, without a title.
    static func linkTargets(in prose: [String]) throws -> [String] {
        // Inline code first, so `[a](b)` shown as code is not taken for a link.
        let text = prose.joined(separator: "\n").replacing(try Regex(#"`[^`\n]*`"#), with: "")
        return text.matches(of: try Regex(#"\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#)).compactMap { match in
            match.output[1].substring.map(String.init)
        }
    }

    @Test func relativeLinksAndAnchorsResolve() throws {
        var checked = 0
        for document in try Self.documents() {
            let text = try Self.text(document)
            let folder = Self.root.appendingPathComponent(document).deletingLastPathComponent()
            for target in try Self.linkTargets(in: Self.split(text).prose) {
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let path = parts[0]
                let anchor = parts.count > 1 ? parts[1] : nil
                let file = path.isEmpty
                    ? Self.root.appendingPathComponent(document)
                    : folder.appendingPathComponent(path.removingPercentEncoding ?? path).standardizedFileURL
                #expect(file.path.hasPrefix(Self.root.standardizedFileURL.path), "\(document): \(target) leaves the repository")
                #expect(FileManager.default.fileExists(atPath: file.path), "\(document): \(target) names no file")
                if let anchor, file.pathExtension == "md", FileManager.default.fileExists(atPath: file.path) {
                    let anchors = Self.anchors(of: try String(contentsOf: file, encoding: .utf8))
                    #expect(anchors.contains(anchor), "\(document): \(target): no heading has the anchor #\(anchor)")
                }
            }
        }
        #expect(checked >= 20)
    }

    /// `pushtally WORD [WORD]` at a command's start, in a code block or an inline code span.
    static func commands(in text: String) throws -> [[String]] {
        let (prose, code) = split(text)
        var candidates = code
        // Inline code spans may wrap onto the next line of prose.
        let joined = prose.joined(separator: " ")
        candidates += joined.matches(of: try Regex(#"`([^`]+)`"#)).compactMap { $0.output[1].substring.map(String.init) }
        let command = try Regex(#"^\s*(?:sudo\s+(?:-u\s+\S+\s+)?)?(?:\S*/)?pushtally\s+([a-z][a-z-]*)(?:\s+([a-z][a-z-]*))?"#)
        return candidates.compactMap { line in
            guard let match = line.firstMatch(of: command) else { return nil }
            return [match.output[1].substring, match.output[2].substring].compactMap { $0.map(String.init) }
        }
    }

    /// The subcommands `pushtally ARGS --help` lists (empty for a command without any).
    static func subcommands(_ arguments: [String]) async throws -> Set<String>? {
        let help = try await runPushtally(arguments + ["--help"])
        guard help.status == 0 else { return nil }
        var names: Set<String> = []
        var inList = false
        for line in help.stdout.components(separatedBy: "\n") {
            if line.hasPrefix("SUBCOMMANDS:") {
                inList = true
            } else if inList {
                // A name is indented by two spaces; a description wrapped onto the next line by more.
                guard line.hasPrefix("  ") else { break }
                if !line.hasPrefix("   "), let name = line.split(separator: " ").first { names.insert(String(name)) }
            }
        }
        return names
    }

    @Test func everyShownCommandExists() async throws {
        var shown: [[String]: [String]] = [:]
        for document in try Self.documents() {
            for command in try Self.commands(in: Self.text(document)) {
                shown[command, default: []].append(document)
            }
        }
        #expect(shown.keys.contains(["serve"]) || shown.keys.contains { $0.first == "serve" })
        let topHelp = try await Self.subcommands([])
        let top = try #require(topHelp, "pushtally --help failed")
        #expect(top.contains("serve") && top.contains("report"), "\(top)")
        var children: [String: Set<String>] = [:]
        for (command, documents) in shown.sorted(by: { $0.key.joined(separator: " ") < $1.key.joined(separator: " ") }) {
            let name = command[0]
            guard top.contains(name) else {
                Issue.record("`pushtally \(name)` (in \(Set(documents).sorted())) is no subcommand; pushtally has \(top.sorted())")
                continue
            }
            if children[name] == nil {
                guard let help = try await Self.subcommands([name]) else {
                    Issue.record("pushtally \(name) --help failed")
                    continue
                }
                children[name] = help
            }
            // A second word is a subcommand only where the first has subcommands (else it is an argument).
            if let child = command.dropFirst().first, let known = children[name], !known.isEmpty {
                #expect(known.contains(child), "`pushtally \(name) \(child)` (in \(Set(documents).sorted())) is no subcommand; \(name) has \(known.sorted())")
            }
        }
        #expect(shown.count >= 20)
    }
}
