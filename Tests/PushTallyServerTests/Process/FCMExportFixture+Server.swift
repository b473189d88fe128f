import Foundation
import PushTallyTestSupport
import Testing

extension FCMExportFixture {
    /// Registers the fixture's labelled pushes in the campaign `android-sale` (4 sent each, to Android) and posts
    /// one Android display receipt for each: the 8 sent and 2 displayed the FCM figures are read beside.
    static func sendAndDisplay(on server: ServerProcess) async throws {
        let backend = ["Content-Type": "application/json", "Authorization": "Bearer \(server.adminToken)"]
        for push in registered {
            let answer = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/pushes/\(push)"), method: "PUT", headers: backend,
                body: Data(#"{"campaign":"android-sale","sent":4,"platform":"android"}"#.utf8))
            #expect(answer.status == 201)
        }
        let receipts = registered.enumerated().map { #"{"push_id":"\#($1)","receipt_id":"r\#($0 + 1)","platform":"android"}"# }
        let posted = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data("[\(receipts.joined(separator: ","))]".utf8))
        #expect(posted.status == 200)
    }
}
