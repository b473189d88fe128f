import ArgumentParser
import Foundation
import PushTallyAPI
import PushTallyCore
import PushTallyUseCases

/// Webhooks and alerts from the database directly or through a server. The local path runs the checks the
/// server runs (``WebhookManagement``, which the routes call too, and ``AlertRule``) and renders the server's
/// JSON, so both answer alike and `--json` prints the same text either way.
extension SourceOptions.Source {
    /// - Parameter allowPrivate: store a receiver on a private network (the local path's
    ///   `serve --allow-private-webhooks`; through a server, the server decides).
    func createWebhook(_ definition: WebhookDefinition, allowPrivate: Bool) async throws -> APIAnswer<WebhookInfo> {
        switch self {
        case .server(let client):
            return try await Self.managed { try await client.createWebhook(definition) }
        case .database(let store):
            let management = Self.webhookManagement(store, allowPrivate: allowPrivate)
            let json = try await Self.validated { try await management.create(body: try JSONEncoder().encode(definition)) }
            return try APIAnswer(json: json)
        }
    }

    func webhooks() async throws -> APIAnswer<[WebhookInfo]> {
        switch self {
        case .server(let client):
            return try await Self.managed { try await client.webhooks() }
        case .database(let store):
            let json = try await Self.webhookManagement(store).listJSON()
            return try APIAnswer(json: json, list: \WebhookList.webhooks)
        }
    }

    func deleteWebhook(id: String) async throws {
        switch self {
        case .server(let client):
            try await Self.managed { try await client.deleteWebhook(id: id) }
        case .database(let store):
            guard try await store.deleteWebhook(id: id) else { throw Self.notFound("no webhook \(id)") }
        }
    }

    func deliveries(webhookID id: String, status: String?, limit: Int?) async throws -> APIAnswer<[WebhookDeliveryInfo]> {
        switch self {
        case .server(let client):
            return try await Self.managed { try await client.webhookDeliveries(id: id, status: status, limit: limit) }
        case .database(let store):
            // The route's checks, in its order: bad values before an unknown id.
            let parsed = try await Self.validated { try status.map { text throws(FieldError) in try WebhookDeliveryStatus(parsing: text) } }
            let maximum = WebhookManagement.maxDeliveryLimit
            if let limit, !(1...maximum).contains(limit) { throw ValidationError("limit must be a whole number from 1 to \(maximum)") }
            guard let json = try await Self.webhookManagement(store).deliveriesJSON(
                webhookID: id, status: parsed, limit: limit ?? WebhookManagement.defaultDeliveryLimit)
            else { throw Self.notFound("no webhook \(id)") }
            return try APIAnswer(json: json, list: \DeliveryList.deliveries)
        }
    }

    func createAlert(_ definition: AlertDefinition) async throws -> APIAnswer<AlertInfo> {
        switch self {
        case .server(let client):
            return try await Self.managed { try await client.createAlert(definition) }
        case .database(let store):
            let rule = try await Self.validated { try AlertRule.parse(try JSONValue.parse(try JSONEncoder().encode(definition))) }
            let alert = Alert.new(rule, at: store.configuration.clock())
            do {
                try await store.createAlert(alert)
            } catch let error as StoreError {
                guard case .alertNameTaken = error else { throw error }
                throw ValidationError(error.description)
            }
            return try APIAnswer(json: alert.json)
        }
    }

    func alerts() async throws -> APIAnswer<[AlertInfo]> {
        switch self {
        case .server(let client):
            return try await Self.managed { try await client.alerts() }
        case .database(let store):
            let json = "{\"alerts\":[" + (try await store.alerts()).map(\.json).joined(separator: ",") + "]}"
            return try APIAnswer(json: json, list: \AlertList.alerts)
        }
    }

    func deleteAlert(id: String) async throws {
        switch self {
        case .server(let client):
            try await Self.managed { try await client.deleteAlert(id: id) }
        case .database(let store):
            guard try await store.deleteAlert(id: id) else { throw Self.notFound("no alert \(id)") }
        }
    }

    /// The server's webhook use cases on the database. `allowPrivate` only matters to creation: listing
    /// resolves nothing.
    private static func webhookManagement(_ store: any PushTallyStore, allowPrivate: Bool = false) -> WebhookManagement {
        WebhookManagement(store: store, urlGuard: WebhookURLGuard(allowPrivate: allowPrivate), clock: store.configuration.clock)
    }

    /// A local refusal as the server's `400` reads through the CLI: its message, exit code 64.
    private static func validated<T>(_ check: () async throws -> T) async throws -> T {
        do {
            return try await check()
        } catch let error as FieldError {
            throw ValidationError(error.message)
        }
    }

    private static func notFound(_ message: String) -> ExitCode {
        printError(message)
        return Exit.notFound
    }

    /// Like ``remote(_:)``, and a `409` (an alert name taken) is a bad argument too, as it is locally.
    private static func managed<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as PushTallyAPIError {
            guard case .refused(status: 409, _, _) = error else { return try await remote { throw error } }
            throw ValidationError(error.description)
        }
    }
}
