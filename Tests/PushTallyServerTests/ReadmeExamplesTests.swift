import Foundation
import PushTallyTestSupport
import Testing

/// The README's curl examples, run as written (in order) against a fresh `pushtally serve`.
@Suite(.serialized) struct ReadmeExamplesTests {
    struct Example {
        let command: String
        /// The `# ...` line right after the command, when the README shows the answer.
        let expectedOutput: String?
    }

    static func readme() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    static func examples() throws -> [Example] {
        let lines = try readme().components(separatedBy: "\n")
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

    @Test func curlExamplesWorkAsWritten() async throws {
        let examples = try Self.examples()
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
        // The webhook example's receiver is on the reader's own machine, so the README starts the server the way
        // that example asks for; every other example works either way.
        #expect(try Self.readme().contains("`scripts/serve --allow-private-webhooks`"))
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
            #expect(process.terminationStatus == 0, "\(example.command)\n\(text)")
            if let expected = example.expectedOutput {
                #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == expected, "\(example.command)")
            }
        }
        let csv = try String(contentsOf: server.directory.appendingPathComponent("campaigns.csv"), encoding: .utf8)
        #expect(csv.contains("新文章推荐"))
        // The campaign's conversion (USD 9.99, direct) is its own CSV column, as the Columns paragraph says.
        let header = csv.split(separator: "\r\n").first.map { $0.split(separator: ",").map(String.init) } ?? []
        let row = csv.split(separator: "\r\n").first { $0.contains("新文章推荐") }.map { $0.split(separator: ",").map(String.init) } ?? []
        let column = try #require(header.firstIndex(of: "conversion_value:USD"), "\(header)")
        #expect(row.count == header.count && row[column] == "9.99", "\(csv)")
        #expect(try await server.stop() == 0)
    }
}
