import Foundation
import PushTallyCore
import Testing

/// docs/openapi.yaml describes every declared report (``ReportKinds/all``) as it is declared: its route, the
/// query and path parameters it takes, and the JSON fields of its rows and header.
@Suite struct OpenAPIReportKindsTests {
    /// The lines under `header` (a line of the document), up to the next line indented as little as it.
    static func block(_ text: String, under header: String) throws -> Substring {
        // A block's first line is a header too.
        let text = "\n" + text
        let start = try #require(text.range(of: "\n\(header)\n"), "docs/openapi.yaml has no \(header)")
        let indent = header.prefix { $0 == " " }.count
        let rest = text[start.upperBound...]
        var end = rest.endIndex
        var position = rest.startIndex
        while position < rest.endIndex {
            let lineEnd = rest[position...].firstIndex(of: "\n") ?? rest.endIndex
            let line = rest[position..<lineEnd]
            if !line.trimmingCharacters(in: .whitespaces).isEmpty, line.prefix(while: { $0 == " " }).count <= indent {
                end = position
                break
            }
            position = lineEnd == rest.endIndex ? lineEnd : rest.index(after: lineEnd)
        }
        return rest[..<end]
    }

    /// A component of `section` (`schemas`, `parameters`, `responses`).
    static func component(_ text: String, _ section: String, _ name: String) throws -> Substring {
        try block(String(try block(text, under: "  \(section):")), under: "    \(name):")
    }

    /// The GET operation of a declared report's route, its path parameter written `{name}` as OpenAPI does.
    static func operation(_ text: String, _ report: ReportDeclaration) throws -> Substring {
        let path = report.path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
        return try block(String(try block(text, under: "  \(path):")), under: "    get:")
    }

    /// The parameters an operation documents, inline or by reference, as (name, in).
    static func parameters(_ text: String, _ operation: Substring) throws -> [(name: String, place: String)] {
        let list = try block(String(operation), under: "      parameters:")
        var found: [(String, String)] = []
        for entry in list.split(separator: "\n        - ") {
            if let reference = entry.firstMatch(of: /\$ref: '#\/components\/parameters\/(\w+)'/) {
                let parameter = try component(text, "parameters", String(reference.1))
                let name = try #require(parameter.firstMatch(of: /(?m)^      name: (\S+)/)?.1)
                let place = try #require(parameter.firstMatch(of: /(?m)^      in: (\w+)/)?.1)
                found.append((String(name), String(place)))
            } else if let name = entry.firstMatch(of: /name: (\S+)/)?.1, let place = entry.firstMatch(of: /\n\s+in: (\w+)/)?.1 {
                found.append((String(name), String(place)))
            }
        }
        return found
    }

    /// Every key written in `block` and in the components it refers to, followed reference by reference.
    static func documentedKeys(_ text: String, in block: Substring) throws -> Set<String> {
        var keys: Set<String> = []
        var pending = [block]
        var visited: Set<String> = []
        while let next = pending.popLast() {
            keys.formUnion(next.matches(of: /(?m)^[ -]*([a-z0-9_]+):/).map { String($0.1) })
            keys.formUnion(next.matches(of: /[{,] *([a-z0-9_]+):/).map { String($0.1) })
            for reference in next.matches(of: /\$ref: '#\/components\/(schemas|responses)\/(\w+)'/) {
                let key = "\(reference.1)/\(reference.2)"
                guard visited.insert(key).inserted else { continue }
                pending.append(try component(text, String(reference.1), String(reference.2)))
            }
        }
        return keys
    }

    @Test(arguments: ReportKinds.all)
    func theReportsParametersAreTheDocumentedOnes(_ report: ReportDeclaration) throws {
        let text = try OpenAPITests.document()
        let documented = try Self.parameters(text, try Self.operation(text, report))
        let query = documented.filter { $0.place == "query" }.map(\.name)
        #expect(Set(query) == Set(report.parameters), "\(report.name): documented \(query), declared \(report.parameters)")
        #expect(query.count == Set(query).count, "\(report.name) documents a parameter twice")
        let path = documented.filter { $0.place == "path" }.map(\.name)
        #expect(path == (report.pathParameter.map { [$0] } ?? []), "\(report.name): path parameters \(path)")
    }

    @Test(arguments: ReportKinds.all)
    func theReportsFieldsAreDocumented(_ report: ReportDeclaration) throws {
        let text = try OpenAPITests.document()
        let answer = try Self.block(String(try Self.operation(text, report)), under: "        '200':")
        let documented = try Self.documentedKeys(text, in: answer)
        let kind = try report.kind.init(ReportQuery(), pathValue: "c")
        let table = try ReportRequest(ReportSubject(kind)).emptyTable()
        let fields = [table.name] + table.template.map(\.0) + table.header.map(\.0)
        #expect(fields.count > 2)
        let missing = fields.filter { !documented.contains($0) }
        #expect(missing.isEmpty, "\(report.name): docs/openapi.yaml does not describe \(missing)")
    }

    /// Names tell kinds apart (routes, refusals, CLI subcommands): no two may share one, or a path.
    @Test func reportNamesAndPathsAreUnique() {
        #expect(Set(ReportKinds.all.map(\.name)).count == ReportKinds.all.count)
        #expect(Set(ReportKinds.all.map(\.path)).count == ReportKinds.all.count)
        #expect(ReportKinds.all.allSatisfy { ReportKinds.named($0.name) == $0 })
    }
}
