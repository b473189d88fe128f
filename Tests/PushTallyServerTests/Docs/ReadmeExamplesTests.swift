import Foundation
import PushTallyTestSupport
import Testing

/// The curl examples of the README and of every `docs/*.md`, run as written (in order) against a fresh
/// `pushtally serve` per file.
@Suite(.serialized) struct ReadmeExamplesTests {
    struct Example {
        let command: String
        /// The `# ...` line right after the command, when the document shows the answer.
        let expectedOutput: String?
    }

    static let root = Documentation.root
    static func documents() throws -> [String] { try Documentation.documents() }
    static func text(_ document: String) throws -> String { try Documentation.text(document) }

    static func examples(in document: String) throws -> [Example] {
        let lines = try text(document).components(separatedBy: "\n")
        var examples: [Example] = []
        var inShell = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("```") {
                inShell = line == "```sh"
            } else if inShell, line.hasPrefix("curl ") {
                var command = line
                while command.hasSuffix("\\"), index + 1 < lines.count {
                    index += 1
                    command = String(command.dropLast()) + " " + lines[index].trimmingCharacters(in: .whitespaces)
                }
                let next = index + 1 < lines.count ? lines[index + 1] : ""
                examples.append(Example(command: command, expectedOutput: next.hasPrefix("# {") ? String(next.dropFirst(2)) : nil))
            }
            index += 1
        }
        return examples
    }

    /// Runs `examples` in order against a fresh server; returns the server's folder (where `-o` files land).
    static func run(_ examples: [Example], of document: String, check: (URL) throws -> Void = { _ in }) async throws {
        // The webhook examples' receiver is on the reader's own machine, so WEBHOOKS.md starts the server the way
        // those examples ask for; every other example works either way.
        let server = try ServerProcess(extraArguments: ["--allow-private-webhooks"])
        defer { server.removeFiles() }
        try await server.start()
        for example in examples {
            let command = example.command.replacingOccurrences(of: "http://127.0.0.1:8080", with: "http://127.0.0.1:\(server.port)")
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", command]
            process.currentDirectoryURL = server.directory
            process.environment = ProcessInfo.processInfo.environment.merging(["PUSHTALLY_TOKEN": server.adminToken]) { $1 }
            let output = Pipe()
            process.standardOutput = output
            process.standardError = output
            // Read to the end on a thread of its own, so the wait holds no cooperative thread.
            let data = try await blocking {
                try process.run()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.blockUntilExit()
                return data
            }
            let text = String(decoding: data, as: UTF8.self)
            #expect(process.terminationStatus == 0, "\(document): \(example.command)\n\(text)")
            if let expected = example.expectedOutput {
                #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(document): \(example.command)")
            }
        }
        try check(server.directory)
        #expect(try await server.stop() == 0)
    }

    /// The campaigns CSV a document downloaded holds the CJK campaign the examples registered.
    static func campaignsCSV(in directory: URL) throws -> (header: [String], row: [String]) {
        let csv = try String(contentsOf: directory.appendingPathComponent("campaigns.csv"), encoding: .utf8)
        #expect(csv.contains("新文章推荐"))
        let header = csv.split(separator: "\r\n").first.map { $0.split(separator: ",").map(String.init) } ?? []
        let row = csv.split(separator: "\r\n").first { $0.contains("新文章推荐") }
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) } ?? []
        return (header, row)
    }

    /// The README's tour: the extension's own form receipt, a registration, reports.
    @Test func readmeCurlExamplesWorkAsWritten() async throws {
        let examples = try Self.examples(in: "README.md")
        #expect(examples.count >= 5)
        #expect(examples.contains { $0.command == "curl -fsS -X POST http://127.0.0.1:8080/v1/receipts --data 'push_id=2018001'" })
        #expect(examples.contains { $0.command.contains("-X PUT http://127.0.0.1:8080/v1/pushes/2018001") && $0.expectedOutput != nil })
        try await Self.run(examples, of: "README.md") { directory in
            let (header, row) = try Self.campaignsCSV(in: directory)
            #expect(row.count == header.count && !row.isEmpty)
        }
    }

    /// The API guide: every route's examples, with sessions and conversions and the attribution report's answer.
    @Test func apiGuideCurlExamplesWorkAsWritten() async throws {
        let examples = try Self.examples(in: "docs/API.md")
        #expect(examples.count >= 8)
        // Sessions and conversions are shown as form, JSON and a batch, and the attribution report's answer is
        // checked: it holds the credits the rules give those examples (a direct open and conversion, an
        // influenced open, an unattributed conversion), whatever the day the test runs.
        for route in ["/v1/sessions", "/v1/conversions"] {
            let posts = examples.filter { $0.command.contains("-X POST http://127.0.0.1:8080\(route)") }
            #expect(posts.contains { $0.command.contains("x-www-form-urlencoded") }, "\(route): no form example")
            #expect(posts.contains { $0.command.contains("application/json") }, "\(route): no JSON example")
        }
        #expect(examples.contains { $0.command.contains("/v1/reports/attribution") && $0.expectedOutput != nil })
        try await Self.run(examples, of: "docs/API.md") { directory in
            // The campaign's conversion (USD 9.99, direct) is its own CSV column, as the Columns paragraph says.
            let (header, row) = try Self.campaignsCSV(in: directory)
            let column = try #require(header.firstIndex(of: "conversion_value:USD"), "\(header)")
            #expect(row.count == header.count && row[column] == "9.99", "\(header)\n\(row)")
        }
    }

    /// Every other document's curl examples (webhooks, alerts, and any a document adds later).
    @Test func otherDocumentsCurlExamplesWorkAsWritten() async throws {
        #expect(try Self.text("docs/WEBHOOKS.md").contains("`scripts/serve --allow-private-webhooks`"))
        var ran = 0
        for document in try Self.documents() where document != "README.md" && document != "docs/API.md" {
            let examples = try Self.examples(in: document)
            guard !examples.isEmpty else { continue }
            ran += examples.count
            try await Self.run(examples, of: document)
        }
        #expect(ran >= 3)
    }
}
