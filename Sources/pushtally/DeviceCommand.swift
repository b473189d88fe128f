import ArgumentParser
import Foundation
import PushTallyCore

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "Look at one device's events, for support.", subcommands: [Timeline.self])

    struct Timeline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A device's displays, actions, sessions and conversions, oldest first (admin token with --server).",
            discussion: "When more remain, the cursor for --after is printed on stderr (in the JSON, as next).")

        @Argument(help: "The device id as the app sent it.")
        var id: String

        @Option(help: "At most this many events, from 1 to \(DeviceTimelinePage.maximumLimit) (default \(DeviceTimelinePage.defaultLimit)).")
        var limit: Int?

        @Option(help: "Start after this cursor (an earlier page's next).")
        var after: String?

        @Option(help: "table or json (the API's answer, unchanged).")
        var format: TimelineFormat = .table

        @OptionGroup var source: SourceOptions

        enum TimelineFormat: String, ExpressibleByArgument, CaseIterable {
            case table, json
        }

        func run() async throws {
            let source = try await source.open(needsDeviceSecret: true)
            try await closing(source) {
                let json = try await source.deviceTimeline(deviceID: id, limit: limit, after: after)
                guard format == .table else { return print(json) }
                let page = try TimelineTable(json: json)
                FileHandle.standardOutput.write(Data(page.table.render().utf8))
                if let next = page.next { printError("more events: --after \(next)") }
            }
        }
    }
}

extension SourceOptions.Source {
    /// The timeline as the route answers it; the local path runs the route's checks.
    func deviceTimeline(deviceID: String, limit: Int?, after: String?) async throws -> String {
        switch self {
        case .server(let client):
            return try await Self.remote { try await client.deviceTimeline(deviceID: deviceID, limit: limit, after: after) }
        case .database(let store):
            let deviceID = try checked { () throws(FieldError) in try TimelineDeviceID.checked(deviceID) }
            if let limit, !(1...DeviceTimelinePage.maximumLimit).contains(limit) {
                throw ValidationError("limit must be a whole number from 1 to \(DeviceTimelinePage.maximumLimit)")
            }
            let cursor: TimelineCursor
            do {
                cursor = try after.map { text throws(FieldError) in try TimelineCursor(text: text) } ?? .start
            } catch {
                throw ValidationError(error.message)
            }
            return try await store.deviceTimeline(
                deviceID: deviceID, after: cursor, limit: limit ?? DeviceTimelinePage.defaultLimit
            ).json
        }
    }
}
