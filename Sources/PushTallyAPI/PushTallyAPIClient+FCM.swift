import Foundation
import PushTallyCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PushTallyAPIClient {
    /// Posts one FCM export file to `POST /v1/delivery/fcm` as it is, NDJSON or gzip (`gzip` says which).
    public func importFCM(_ file: Data, gzip: Bool) async throws -> FCMImportSummary {
        var request = URLRequest(url: url("/v1/delivery/fcm"))
        request.httpMethod = "POST"
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        if gzip { request.setValue("gzip", forHTTPHeaderField: "Content-Encoding") }
        request.httpBody = file
        let (status, data) = try await exchange(request)
        try Self.check(status, data)
        return try JSONDecoder().decode(FCMImportSummary.self, from: data)
    }
}
