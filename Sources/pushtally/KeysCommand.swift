import ArgumentParser
import Foundation
import PushTallyCore

struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Manage API tokens (stored hashed; a secret is shown once, at creation).",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a token and print it alone on stdout.")

        @Option(help: "ingest (post events), backend (register pushes), read (reports) or admin (all).")
        var role: Role

        @Option(help: "A note saying who or what holds the token.")
        var label: String?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await database.open(mustExist: false)
            try await closing(store) {
                print(try await store.createToken(role: role, label: label).token)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List tokens: id, role, state, created, label.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await database.open()
            try await closing(store) {
                var table = PlainTable(header: ["id", "role", "state", "created", .init("label", text: true)])
                table.rows = try await store.listTokens().map { token in
                    let state = token.revokedAtMillis == nil ? "active" : "revoked"
                    return [token.id, token.role.rawValue, state, Timestamp.iso8601(millis: token.createdAtMillis), token.label ?? PlainTable.missing]
                }
                FileHandle.standardOutput.write(Data(table.render().utf8))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a token by its id (or the whole token).")

        @Argument(help: "The token's id as `keys list` shows it.")
        var id: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try await database.open()
            try await closing(store) {
                guard try await store.revokeToken(id) else {
                    printError("no active token with id \(id)")
                    throw Exit.notFound
                }
                print("revoked \(id)")
            }
        }
    }
}

extension Role: ExpressibleByArgument {}
