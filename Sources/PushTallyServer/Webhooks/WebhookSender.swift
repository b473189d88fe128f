import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PushTallyCore

/// Sends one signed webhook message (Standard Webhooks headers) and says how it went.
///
/// A pooled client per host and approved address: the client's `dnsOverride` pins the host to the address
/// the SSRF check approved, so a DNS answer changing between check and connect cannot redirect the request,
/// while TLS still verifies the certificate against the host name. Redirects are never followed.
actor WebhookSender {
    private var clients: [String: HTTPClient] = [:]
    private let urlGuard: WebhookURLGuard
    /// How long one attempt may take, connect to last byte.
    static let timeout: TimeAmount = .seconds(10)

    init(urlGuard: WebhookURLGuard) {
        self.urlGuard = urlGuard
    }

    func send(_ delivery: ClaimedDelivery, at now: Int64) async -> WebhookAttemptResult {
        let url: WebhookURL
        let address: String
        do {
            url = try WebhookURL(delivery.url)
            address = try await urlGuard.approvedAddress(for: url)
        } catch let error as FieldError {
            return .failed(status: nil, error: error.message)
        } catch {
            return .failed(status: nil, error: "\(error)")
        }
        let timestamp = now / 1000
        guard let signature = WebhookSecret.signature(
            messageID: delivery.messageID, timestampSeconds: timestamp, body: Data(delivery.body.utf8), secret: delivery.secret)
        else { return .failed(status: nil, error: "the endpoint's secret is not a whsec_ secret") }
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.headers.add(name: "user-agent", value: "PushTally-Webhooks/1")
        request.headers.add(name: "webhook-id", value: delivery.messageID)
        request.headers.add(name: "webhook-timestamp", value: String(timestamp))
        request.headers.add(name: "webhook-signature", value: signature)
        // A known length: sent with Content-Length, never chunked.
        request.body = .bytes(ByteBuffer(string: delivery.body))
        do {
            let response = try await client(host: url.host, address: address).execute(request, timeout: Self.timeout)
            // Drained (a little) so the connection goes back to the pool; what receivers say is not kept.
            _ = try? await response.body.collect(upTo: 64 * 1024)
            switch response.status.code {
            case 200..<300: return .delivered(status: Int(response.status.code))
            case 410: return .gone
            default: return .failed(status: Int(response.status.code), error: "HTTP \(response.status.code)")
            }
        } catch {
            return .failed(status: nil, error: Self.describe(error))
        }
    }

    /// Closes every pooled connection.
    func shutdown() async {
        for client in clients.values { try? await client.shutdown() }
        clients.removeAll()
    }

    private func client(host: String, address: String) -> HTTPClient {
        let key = host + "|" + address
        if let client = clients[key] { return client }
        // A host now resolving elsewhere: its old client is closed rather than kept.
        for (other, client) in clients where other.hasPrefix(host + "|") {
            clients[other] = nil
            Task { try? await client.shutdown() }
        }
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: Self.timeout, read: Self.timeout))
        if address != host { configuration.dnsOverride = [host: address] }
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        clients[key] = client
        return client
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout: return "timed out after 10 s"
            default: return "\(error)"
            }
        }
        return "\(error)"
    }
}
