import ArgumentParser
import Foundation
import PushTallyAPI
import PushTallyCore

struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks",
        abstract: "Manage webhook endpoints (signed with Standard Webhooks; the secret is shown once, at creation).",
        subcommands: [List.self, Create.self, Delete.self, Deliveries.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an endpoint; prints its id and signing secret (id<TAB>secret into a pipe).",
            discussion: "Event types: \(WebhookEventType.allCases.map(\.rawValue).joined(separator: ", ")).")

        @Option(help: "The receiver: an http(s) URL whose host resolves to public addresses only.")
        var url: String

        @Option(name: .customLong("event"), help: "An event type to receive (repeat the flag for several).")
        var events: [String] = []

        @Option(help: "A note saying what the endpoint is for.")
        var description: String?

        @Flag(help: "With --database: allow a receiver on a loopback, private, link-local or other special-purpose address (as serve's flag).")
        var allowPrivateWebhooks = false

        @Flag(help: "Print the API's JSON answer.")
        var json = false

        @OptionGroup var source: SourceOptions

        func run() async throws {
            if allowPrivateWebhooks, source.isRemote {
                throw ValidationError("--allow-private-webhooks applies to --database; a server decides with serve --allow-private-webhooks")
            }
            let source = try await source.open(mustExist: false)
            try await closing(source) {
                let definition = WebhookDefinition(url: url, events: events, description: description)
                let answer = try await source.createWebhook(definition, allowPrivate: allowPrivateWebhooks)
                let secret = answer.value.secret ?? ""
                if json {
                    print(answer.json)
                } else if Terminal.isInteractive {
                    print("created webhook \(answer.value.id) -> \(answer.value.url)")
                    print("secret \(secret)")
                    print("The secret is shown only now: give it to the receiver to verify signatures.")
                } else {
                    print(answer.value.id + "\t" + secret)
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List endpoints: id, status, events, url, created, description (no secrets).")

        @Flag(help: "Print the API's JSON answer.")
        var json = false

        @OptionGroup var source: SourceOptions

        func run() async throws {
            let source = try await source.open()
            try await closing(source) {
                let answer = try await source.webhooks()
                if json { return print(answer.json) }
                var table = PlainTable(header: [
                    "id", "status", .init("events", text: true), .init("url", text: true), "created",
                    .init("description", text: true, optional: true),
                ])
                table.rows = answer.value.map { webhook in
                    [webhook.id, webhook.status, webhook.events.joined(separator: ","), webhook.url, webhook.createdAt,
                     webhook.description ?? PlainTable.missing]
                }
                FileHandle.standardOutput.write(Data(table.render().utf8))
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an endpoint and its pending deliveries.")

        @Argument(help: "The endpoint's id as `webhooks list` shows it.")
        var id: String

        @OptionGroup var source: SourceOptions

        func run() async throws {
            let source = try await source.open()
            try await closing(source) {
                try await source.deleteWebhook(id: id)
                print("deleted \(id)")
            }
        }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "An endpoint's deliveries, newest first: message, type, status, attempts, last HTTP status, "
                + "last error, created, next attempt, delivered.")

        @Argument(help: "The endpoint's id.")
        var webhookID: String

        @Option(help: "Only pending, delivered or failed deliveries.")
        var status: String?

        @Option(help: "At most this many (1 to 1000; default 100).")
        var limit: Int?

        @Flag(help: "Print the API's JSON answer.")
        var json = false

        @OptionGroup var source: SourceOptions

        func run() async throws {
            let source = try await source.open()
            try await closing(source) {
                let answer = try await source.deliveries(webhookID: webhookID, status: status, limit: limit)
                if json { return print(answer.json) }
                let missing = PlainTable.missing
                var table = PlainTable(header: [
                    "message", "type", "status", "attempts", "last status", .init("last error", text: true), "created",
                    .init("next attempt", optional: true), .init("delivered", optional: true),
                ])
                table.rows = answer.value.map { delivery in
                    [delivery.messageID, delivery.type, delivery.status, String(delivery.attempts),
                     delivery.lastStatus.map(String.init) ?? missing, delivery.lastError ?? missing, delivery.createdAt,
                     delivery.nextAttemptAt ?? missing, delivery.deliveredAt ?? missing]
                }
                FileHandle.standardOutput.write(Data(table.render().utf8))
            }
        }
    }
}
