import Foundation
import PushTallyCore
@testable import PushTallyServer
import Testing

/// What the documentation quotes of the code, held to the code: no count of the suite's size, the store's roles and the
/// report reader's calls in ARCHITECTURE.md, every route named in the prose docs, and PERFORMANCE.md's current
/// PostgreSQL figures agreeing with SCALING.md's.
@Suite struct DocsFiguresTests {
    /// Every Swift file under `folder` (from the repository's root), as text.
    static func swiftSources(under folder: String) throws -> [String] {
        let base = Documentation.root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { try String(contentsOf: $0, encoding: .utf8) }
    }

    /// The suite's size changes with every test: TESTING.md points to the runner's count rather than quoting one.
    @Test func testingMDQuotesNoCountOfItsOwn() throws {
        let testing = try Documentation.text("docs/TESTING.md")
        #expect(testing.firstMatch(of: /(?i)(suite|holds|runs) [0-9][0-9,]* tests/) == nil, "TESTING.md quotes a test count")
    }

    /// The API document's version is the product's, from its one place (`VERSION`, which `pushtally --version`
    /// and the packages read).
    @Test func theAPIDocumentCarriesTheProductsVersion() throws {
        let version = try Documentation.text("VERSION").trimmingCharacters(in: .whitespacesAndNewlines)
        let document = try Documentation.text("docs/openapi.yaml")
        let documented = try #require(document.firstMatch(of: /\n  version: (\S+)\n/)?.1, "docs/openapi.yaml has an info.version")
        #expect(String(documented) == version, "docs/openapi.yaml says \(documented), VERSION says \(version)")
    }

    /// The release files and image tag the install guides name carry the version in `VERSION`.
    @Test func theInstallGuidesNameTheReleasesVersion() throws {
        let version = try Documentation.text("VERSION").trimmingCharacters(in: .whitespacesAndNewlines)
        var named = 0
        for document in ["README.md", "docs/OPERATIONS.md"] {
            let text = try Documentation.text(document)
            for match in text.matches(of: /pushtally(?:-image)?[-_:]([0-9]+\.[0-9]+\.[0-9]+)/) {
                named += 1
                #expect(String(match.1) == version, "\(document) names \(match.0); VERSION says \(version)")
            }
        }
        #expect(named > 0, "the install guides name the release files")
    }

    @Test func architectureMDListsEveryStoreRoleAndEveryReportReaderCall() throws {
        let roles = try Self.swiftSources(under: "Sources/PushTallyCore/Store/Roles")
        let composition = try #require(roles.first { $0.contains("public protocol PushTallyStore:") })
        let body = try #require(composition.components(separatedBy: "public protocol PushTallyStore:").last?.components(separatedBy: "{").first)
        let names = body.split(whereSeparator: { ",\n ".contains($0) }).map(String.init).filter { !$0.isEmpty }
        let architecture = try Documentation.text("docs/ARCHITECTURE.md")
        let numbers = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
        #expect(names.count < numbers.count)
        #expect(architecture.contains("composition of \(numbers[names.count]) roles"), "ARCHITECTURE.md counts \(names.count) roles")
        let counted = try Regex("\\b(" + numbers.dropFirst().joined(separator: "|") + ") roles\\b")
        let quoted = architecture.matches(of: counted).map { String(architecture[$0.range]) }
        #expect(quoted.count > 1 && quoted.allSatisfy { $0 == "\(numbers[names.count]) roles" }, "every count of roles: \(quoted)")
        for name in names {
            #expect(architecture.contains("| `\(name)`"), "ARCHITECTURE.md's table of roles has a row for \(name)")
        }
        let reader = try #require(roles.first { $0.contains("public protocol ReportReader") })
        let requirements = try #require(reader.components(separatedBy: "public protocol ReportReader").last?.components(separatedBy: "\n}").first)
        let calls = requirements.matches(of: /func ([a-zA-Z]+)[<(]/).map { String($0.1) }
        #expect(!calls.isEmpty)
        let row = try #require(architecture.components(separatedBy: "\n").first { $0.hasPrefix("| `ReportReader`") })
        let cell = row.split(separator: "|").first.map(String.init) ?? ""
        let listed = cell.matches(of: /`([a-zA-Z]+)`/).map { String($0.1) }.filter { $0 != "ReportReader" }
        let (sortedCalls, sortedListed) = (calls.sorted(), listed.sorted())
        #expect(sortedListed == sortedCalls, "ARCHITECTURE.md's ReportReader row names the protocol's requirements")
    }

    @Test func everyRouteIsNamedInTheProseDocs() throws {
        let prose = try Documentation.documents().map(Documentation.text).joined(separator: "\n")
        for route in APIRoute.allCases where route != .dashboardFile {
            let path = route.path.replacing(/:([a-z_]+)/) { "{\($0.1)}" }
            #expect(prose.contains(path), "\(route.method) \(path) is named in README.md or docs/*.md")
        }
    }

    @Test func performanceMDsCurrentPostgreSQLFiguresAreSCALINGMDs() throws {
        let scaling = try Documentation.text("docs/SCALING.md")
        let current = try #require(
            try Documentation.text("docs/PERFORMANCE.md").components(separatedBy: "\n## Log").first, "PERFORMANCE.md has a Log section")
        let row = try #require(scaling.components(separatedBy: "\n").first { $0.hasPrefix("| single form posts") })
        let rates = row.matches(of: /([0-9][0-9,]*) req\/s/).map { String($0.1) }
        #expect(rates.count == 2, "SQLite's and PostgreSQL's single receipts")
        for rate in rates {
            #expect(current.contains("\(rate) req/s"), "PERFORMANCE.md's current table quotes SCALING.md's \(rate) req/s")
        }
    }
}
