import Foundation
import PushTallyCore
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

@Suite struct OpenAPITests {
    /// Path → methods declared under `paths:` in docs/openapi.yaml.
    static func documentedOperations() throws -> [String: Set<String>] {
        let text = try document()
        var operations: [String: Set<String>] = [:]
        var inPaths = false
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("paths:") { inPaths = true; continue }
            if inPaths, let first = line.first, first != " ", first != "#" { inPaths = false }
            guard inPaths else { continue }
            if let match = line.wholeMatch(of: #/  (/\S*):[ ]*/#) {
                current = String(match.1)
                operations[current!, default: []] = []
            } else if let match = line.wholeMatch(of: #/    (get|put|post|delete|patch|head|options):[ ]*/#), let path = current {
                operations[path, default: []].insert(match.1.uppercased())
            }
        }
        return operations
    }

    /// Every route of ``APIRoute`` (which the router serves exactly: ``RouteTableTests``) is documented.
    @Test func everyRegisteredRouteIsDocumented() async throws {
        let documented = try Self.documentedOperations()
        let routes = APIRoute.allCases.map(\.routeDescription)
        #expect(!routes.isEmpty)
        for route in routes {
            #expect(documented[route.path]?.contains(route.method) == true, "\(route) is not in docs/openapi.yaml")
        }
        // And nothing is documented that the server does not serve.
        let served = Set(routes.map(\.description))
        for (path, methods) in documented {
            for method in methods {
                #expect(served.contains("\(method) \(path)"), "docs/openapi.yaml documents \(method) \(path), which the server lacks")
            }
        }
    }

    /// The text of docs/openapi.yaml.
    static func document() throws -> String {
        return try String(contentsOf: PackageRoot.file("docs/openapi.yaml"), encoding: .utf8)
    }

    /// The `tz` parameter's enumeration lists only zones the server takes, since schemathesis sends each as valid
    /// input and expects a 200 (and `UTC`, the default, and empty, which means the default).
    @Test func everyDocumentedTimeZoneIsTaken() throws {
        let text = try Self.document()
        let parameter = try #require(text.range(of: "      name: tz\n"))
        let list = try #require(text[parameter.upperBound...].firstMatch(of: #/enum:\s*\[([^\]]*)\]/#))
        let zones = list.1.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(zones.count > 400)
        #expect(zones.contains("UTC") && zones.contains("Asia/Taipei") && zones.contains("''"))
        for zone in zones where zone != "''" {
            #expect(throws: Never.self, "\(zone)") { try ReportQuery("tz=\(zone)", report: .timeseries).request(.timeseries) }
        }
    }

    /// `/dashboard/{file}` documents exactly the files the binary serves (schemathesis only asks for those).
    @Test func theDashboardFilesAreDocumented() throws {
        let text = try Self.document()
        let line = try #require(text.split(separator: "\n").first { $0.contains("enum: [") && $0.contains("index.html") })
        let documented = line.split(separator: "[")[1].dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(Set(documented) == Set(DashboardAssets.files.keys))
    }
}
