import ArgumentParser
import Foundation
import PushTallyAPI
import PushTallyCore

/// Why one record was not registered.
struct Refusal: Error {
    let message: String
}

struct PushesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pushes",
        abstract: "Manage send records.",
        subcommands: [Import.self]
    )

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register send records in bulk from a CSV or NDJSON file (any sender's export).",
            discussion: """
                CSV needs a header row: push_id, campaign, title, sent_at, targeted, sent, app, environment, platform, \
                failed or failed:<Reason> columns. NDJSON has one JSON object a line, as POST /v1/pushes takes. \
                Bad lines are reported with their line numbers and skipped; the rest import. \
                Exit code 5 when any line was rejected. With --deliveries the file is per-device deliveries: CSV with \
                push_id, device_id, platform, outcome and optionally timestamp and recipient columns, one row per push \
                and device, as POST /v1/pushes/{push_id}/deliveries takes them.
                """
        )

        @Argument(help: "The file: .csv, or .ndjson/.jsonl.")
        var file: String

        @Flag(help: "The file holds per-device deliveries (CSV), not send records.")
        var deliveries = false

        @OptionGroup var source: SourceOptions

        /// Records per transaction (or per HTTP request with --server).
        static let chunk = 1000

        func run() async throws {
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                printError("cannot read \(file): \(error.localizedDescription)")
                throw Exit.notFound
            }
            if deliveries { return try await importDeliveries(text) }
            let lines = file.lowercased().hasSuffix(".csv") ? PushImport.csv(text) : PushImport.ndjson(text)
            var rejected: [(line: Int, error: String)] = []
            var valid: [(line: Int, push: PushRegistration)] = []
            for line in lines {
                switch line.result {
                case .success(let push): valid.append((line.number, push))
                case .failure(let error): rejected.append((line.number, error.description))
                }
            }
            let source = try await source.open(mustExist: false)
            try await closing(source) {
                let progress = Progress(total: valid.count)
                var created = 0
                var updated = 0
                for start in stride(from: 0, to: valid.count, by: Self.chunk) {
                    let slice = Array(valid[start..<min(start + Self.chunk, valid.count)])
                    let outcomes = try await source.register(slice.map(\.push))
                    for (entry, outcome) in zip(slice, outcomes) {
                        switch outcome {
                        case .success(.created): created += 1
                        case .success(.updated): updated += 1
                        case .failure(let refusal): rejected.append((entry.line, refusal.message))
                        }
                    }
                    progress.advance(to: start + slice.count)
                }
                progress.finish()
                rejected.sort { $0.line < $1.line }
                print("imported \(created + updated) (created \(created), updated \(updated)), rejected \(rejected.count)")
                for (line, error) in rejected { print("line \(line): \(error)") }
                if !rejected.isEmpty { throw ExitCode(5) }
            }
        }
    }
}

extension PushesCommand.Import {
    /// Lines per post (per transaction on the database).
    static let deliveryChunk = 10_000

    /// Posts the file's delivery rows push by push, in chunks, through the database or the server.
    func importDeliveries(_ text: String) async throws {
        var rejected: [(line: Int, error: String)] = []
        var byPush: [String: [DeliveryLine]] = [:]
        var order: [String] = []
        for row in DeliveryImport.csv(text) {
            switch row.result {
            case .success(let (pushID, line)):
                if byPush[pushID] == nil { order.append(pushID) }
                byPush[pushID, default: []].append(line)
            case .failure(let error): rejected.append((row.number, error.description))
            }
        }
        let source = try await source.open(mustExist: false)
        try await closing(source) {
            var total = DeliverySummary()
            var refusedPushes: [String] = []
            for pushID in order {
                let lines = byPush[pushID]!
                for start in stride(from: 0, to: lines.count, by: Self.deliveryChunk) {
                    let chunk = Array(lines[start..<min(start + Self.deliveryChunk, lines.count)])
                    do {
                        total.add(try await source.recordDeliveries(pushID: pushID, chunk))
                    } catch let refusal as Refusal {
                        refusedPushes.append("push \(pushID): \(refusal.message)")
                        break
                    }
                }
            }
            print("read \(total.lines) deliveries: stored \(total.stored) (accepted \(total.accepted), refused \(total.refused)), repeated \(total.repeated), rejected \(rejected.count)")
            for (line, error) in rejected.sorted(by: { $0.line < $1.line }) { print("line \(line): \(error)") }
            for refusal in refusedPushes { print(refusal) }
            if !rejected.isEmpty || !refusedPushes.isEmpty { throw ExitCode(5) }
        }
    }
}

extension SourceOptions.Source {
    /// Stores a push's delivery lines in the database or through `POST /v1/pushes/{push_id}/deliveries`.
    func recordDeliveries(pushID: String, _ lines: [DeliveryLine]) async throws -> DeliverySummary {
        switch self {
        case .database(let store):
            do {
                return try await store.recordDeliveries(pushID: pushID, lines)
            } catch let error as StoreError {
                throw Refusal(message: error.description)
            }
        case .server(let client):
            do {
                return try await client.recordDeliveries(pushID: pushID, lines)
            } catch PushTallyAPIError.refused(let status, let body, let text) where status == 400 || status == 404 {
                throw Refusal(message: body?.message ?? text)
            }
        }
    }
}

/// A progress line on stderr, drawn only when stderr is a terminal.
struct Progress {
    let total: Int
    let visible = isatty(STDERR_FILENO) == 1

    func advance(to done: Int) {
        guard visible, total > 0 else { return }
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(total)".utf8))
    }

    func finish() {
        if visible, total > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

extension SourceOptions.Source {
    /// Registers pushes in the database or through `POST /v1/pushes`; per push, its outcome or why it was refused.
    func register(_ pushes: [PushRegistration]) async throws -> [Result<RegistrationOutcome, Refusal>] {
        switch self {
        case .database(let store):
            return try await store.register(pushes).map { $0.mapError { Refusal(message: $0.description) } }
        case .server(let client):
            let answer = try await Self.remote { try await client.register(pushes) }
            let refused = Dictionary(answer.rejected.map { ($0.index, $0.message) }, uniquingKeysWith: { a, _ in a })
            // The server reports created and updated as totals, and only totals are summed from here: the
            // first `created` accepted lines stand for the created ones (which lines they were is not printed).
            var created = answer.created
            return pushes.indices.map { index in
                if let message = refused[index] { return .failure(Refusal(message: message)) }
                defer { created -= 1 }
                return .success(created > 0 ? .created : .updated)
            }
        }
    }
}
