import Foundation
import HummingbirdTesting
import PushTallyTestSupport
import Testing

@testable import PushTallyServer

@Suite struct DashboardAssetTests {
    /// The binary serves exactly what `dashboards/web/` holds (`scripts/embed-dashboard` keeps them equal).
    @Test func embeddedAssetsMatchTheFiles() throws {
        let web = PackageRoot.file("dashboards/web")
        let files = try FileManager.default.contentsOfDirectory(atPath: web.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files == DashboardAssets.files.keys.sorted(), "run scripts/embed-dashboard")
        for name in files {
            let disk = try String(contentsOf: web.appendingPathComponent(name), encoding: .utf8)
            #expect(DashboardAssets.files[name]?.body == disk.trimmingCharacters(in: .newlines), "\(name) differs: run scripts/embed-dashboard")
        }
    }

    @Test func servesThePageWithAStrictPolicyAndNoCDN() async throws {
        try await withApp { (client: any TestClientProtocol, _: TestFixture) async throws in
            for path in ["/dashboard", "/dashboard/"] {
                let page = try await client.send(.get, path)
                #expect(page.status == .ok)
                #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true)
                #expect(!page.text.contains("http://") && !page.text.contains("https://"))
            }
            // Browsers refuse a module script served as anything but JavaScript, so every module is checked.
            let modules = DashboardAssets.files.keys.filter { $0.hasSuffix(".js") }.sorted()
            #expect(modules.contains("app.js"))
            for module in modules {
                #expect(try await client.send(.get, "/dashboard/\(module)").headers[.contentType]?.hasPrefix("text/javascript") == true, "\(module)")
            }
            #expect(try await client.send(.head, "/dashboard/style.css").status == .ok)
            // The page names its icon, so browsers ask for it instead of a missing /favicon.ico.
            let icon = try await client.send(.get, "/dashboard/favicon.svg")
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/svg+xml" && icon.text.hasPrefix("<svg"))
            #expect(try await client.send(.get, "/dashboard/").text.contains("<link rel=\"icon\" href=\"/dashboard/favicon.svg\""))
            #expect(try await client.send(.get, "/dashboard/nope.js").status == .notFound)
        }
    }
}

/// The dashboard in a real browser (headless Chromium) against the real server with seeded data.
@Suite(.serialized) struct BrowserTests {
    static let chromium = "/usr/bin/chromium"

    func chromium(_ arguments: [String]) async throws -> String {
        try #require(FileManager.default.isExecutableFile(atPath: Self.chromium), "chromium is missing: scripts/install-deps --test installs it")
        return try await runProcess(
            Self.chromium,
            ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--virtual-time-budget=15000"] + arguments
        ).output
    }

    /// The cells of the table with `id`, row by row.
    func table(_ id: String, in dom: String) -> [[String]] {
        guard let start = dom.range(of: "<table id=\"\(id)\""), let end = dom.range(of: "</table>", range: start.upperBound..<dom.endIndex) else { return [] }
        let html = String(dom[start.upperBound..<end.lowerBound])
        return html.components(separatedBy: "<tr").dropFirst().map { row in
            row.matches(of: /<t[dh][^>]*>(.*?)<\/t[dh]>/).map { match in
                String(match.1).replacing(/<[^>]+>/, with: "")
            }
        }
    }

    @Test func signsInAndShowsTheRightNumbers() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let auth = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        let base = server.baseURL
        _ = try await httpRequest(base.appendingPathComponent("v1/pushes/p1"), method: "PUT", headers: auth,
            body: Data(#"{"campaign":"春季促销","title":"新文章","sent":10,"sent_at":"2026-11-21T08:00:00Z"}"#.utf8))
        _ = try await httpRequest(base.appendingPathComponent("v1/pushes/p2"), method: "PUT", headers: auth,
            body: Data(#"{"campaign":"autumn","sent":4}"#.utf8))
        _ = try await httpRequest(base.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"push_id":"p1","device_id":"a","app_version":"2.1"},{"push_id":"p1","device_id":"b","app_version":"2.1"},{"push_id":"p1","device_id":"b","app_version":"2.1"},{"push_id":"p2","device_id":"z","app_version":"2.1"}]"#.utf8))
        _ = try await httpRequest(base.appendingPathComponent("v1/actions"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(#"[{"push_id":"p1","device_id":"a","action":"open","app_version":"2.1"},{"push_id":"p1","device_id":"c","action":"open","app_version":"1.9"},{"push_id":"p1","device_id":"a","action":"view","app_version":"2.1"}]"#.utf8))

        // The token goes in the fragment, which the browser never sends: the page moves it to session storage.
        let campaign = "春季促销".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let url = "\(base.absoluteString)/dashboard/#token=\(server.adminToken)&campaign=\(campaign)"
        let dom = try await chromium(["--dump-dom", url])
        #expect(dom.contains("data-loaded=\"true\""), "the dashboard did not finish loading")

        let campaigns = table("campaigns-table", in: dom)
        #expect(campaigns.first?.prefix(4) == ["Campaign", "Sent ▼", "Displayed", "Display rate"] || campaigns.first?.first == "Campaign")
        let spring = try #require(campaigns.first { $0.first == "春季促销" })
        #expect(spring[1] == "10")  // sent
        #expect(spring[2] == "2")  // displayed (unique)
        #expect(spring[3] == "20.0%")
        // The headline of the campaign picked; open rate: 2 opens / 2 displays.
        #expect(dom.contains("id=\"headline-open-rate\">100.0%<") && dom.contains("id=\"headline-sent\">10<"), "\(dom)")
        #expect(campaigns.contains { $0.first == "autumn" && $0[3] == "25.0%" })

        // The drill-down and its charts.
        let pushes = table("pushes-table", in: dom)
        #expect(pushes.contains { $0.first == "p1" && $0[1] == "新文章" })
        #expect(dom.contains("aria-label=\"Funnel\""))
        #expect(dom.contains("aria-label=\"Time to display histogram\""))
        #expect(dom.contains("aria-label=\"Unique displays and opens per day\""))
        // Receipt health flags the version with opens and no receipts.
        let versions = table("versions-table", in: dom)
        #expect(versions.contains { $0.first == "1.9" && $0.last == "⚠ not posting?" })

        // A screenshot for people to look at.
        let screenshot = PackageRoot.file(".build/dashboard.png")
        _ = try await chromium(["--window-size=1280,1700", "--screenshot=\(screenshot.path)", url])
        #expect(FileManager.default.fileExists(atPath: screenshot.path))
        #expect(try await server.stop() == 0)
    }

    @Test func emptyAndErrorStatesAreExplained() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        let empty = try await chromium(["--dump-dom", "\(server.baseURL.absoluteString)/dashboard/#token=\(server.adminToken)"])
        #expect(empty.contains("data-loaded=\"true\""))
        #expect(empty.contains("id=\"campaigns-empty\"") && !empty.contains("id=\"campaigns-empty\" hidden"))
        let refused = try await chromium(["--dump-dom", "\(server.baseURL.absoluteString)/dashboard/#token=pt_000000000000_\(String(repeating: "0", count: 64))"])
        #expect(refused.contains("Your token was refused"))
        #expect(refused.contains("id=\"sign-in\"") && !refused.contains("id=\"sign-in\" hidden"))
        #expect(try await server.stop() == 0)
    }
}
