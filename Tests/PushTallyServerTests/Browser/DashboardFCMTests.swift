import Foundation
import PushTallyTestSupport
import Testing

/// FCM's delivery figures in the dashboard, read in Chromium as a person sees them: once an export is imported,
/// the campaigns table's Delivery columns show "Delivered (FCM)" and "Shown of delivered" beside the display
/// rate, each equal to a recount of the export and to the report's JSON.
@Suite(.serialized) struct DashboardFCMTests {
    static let script = PackageRoot.file("Tests/browser/fcm_clicks.py").path

    @Test func deliveredAndShownOfDeliveredBesideTheDisplayRate() async throws {
        let server = try ServerProcess()
        defer { server.removeFiles() }
        try await server.start()
        try await FCMExportFixture.sendAndDisplay(on: server)
        let imported = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/delivery/fcm"), method: "POST",
            headers: ["Content-Type": "application/x-ndjson", "Authorization": "Bearer \(server.adminToken)"],
            body: Data(FCMExportFixture.text.utf8))
        #expect(imported.status == 200, "\(String(decoding: imported.body, as: UTF8.self))")

        let counts = try FCMExportFixture.recount(FCMExportFixture.text)
        let delivered = FCMExportFixture.registered.reduce(Int64(0)) { $0 + counts.count($1, "MESSAGE_DELIVERED") }
        try #require(delivered > 0, "the fixture has deliveries of the registered pushes")
        let report = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/reports/campaigns"), headers: ["Authorization": "Bearer \(server.adminToken)"])
        let campaigns = try #require(
            (try JSONSerialization.jsonObject(with: report.body) as? [String: Any])?["campaigns"] as? [[String: Any]])
        let json = try #require(campaigns.first { $0["campaign"] as? String == "android-sale" })
        #expect(json["device_delivered"] as? Int == Int(delivered))
        #expect(json["displayed_of_delivered"] as? Double == 2.0 / Double(delivered))

        let run = try await DashboardScript(Self.script, on: server)
        let shown = run.output
        let columns = try #require(shown["columns"] as? [String], "\(run.log)")
        // Beside the display rate, in that order.
        let rate = try #require(columns.firstIndex(of: "Display rate"), "\(columns)")
        #expect(Array(columns.dropFirst(rate + 1).prefix(2)) == ["Delivered (FCM)", "Shown of delivered"], "\(columns)")
        let rows = try #require(shown["rows"] as? [[String: String]], "\(run.log)")
        let row = try #require(rows.first { $0["Campaign"] == "android-sale" }, "\(rows)")
        #expect(row["Delivered (FCM)"] == "\(delivered)", "\(row)")
        #expect(row["Shown of delivered"] == String(format: "%.1f%%", 200.0 / Double(delivered)), "\(row)")
        #expect(row["Display rate"] == "25.0%", "\(row)")
        #expect((shown["errors"] as? [String])?.isEmpty == true, "\(shown)")
        #expect(try await server.stop() == 0)
    }
}
