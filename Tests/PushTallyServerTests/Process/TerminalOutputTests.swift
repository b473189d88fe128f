import Foundation
import PushTallyTestSupport
import Testing

@testable import PushTallyCore

/// The CLI's output for people, read through a real pseudo-terminal (Python's `pty`), and for pipes.
@Suite(.serialized) struct TerminalOutputTests {
    static let longName = "Black Friday early access for returning customers in every European market"

    /// Runs `pushtally` on a pseudo-terminal of `columns` columns, with no `COLUMNS` in its environment (as a
    /// shell starts it) unless `environment` sets one; returns what it drew.
    static func onTerminal(_ arguments: [String], columns: Int, environment: [String: String] = [:]) async throws -> String {
        let script = """
            import fcntl, json, os, pty, struct, sys, termios
            args, columns, extra = json.loads(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3])
            pid, fd = pty.fork()
            if pid == 0:
                env = dict(os.environ, **extra)
                if extra.get("NO_COLOR") is None: env.pop("NO_COLOR", None)
                if extra.get("COLUMNS") is None: env.pop("COLUMNS", None)
                os.execvpe(args[0], args, env)
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
            out = b""
            while True:
                try:
                    chunk = os.read(fd, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            os.waitpid(pid, 0)
            sys.stdout.write(out.decode("utf-8").replace("\\r\\n", "\\n"))
            """
        let command = [try pushtallyBinary().path] + arguments
        let json = String(decoding: try JSONSerialization.data(withJSONObject: command), as: UTF8.self)
        let extra = String(decoding: try JSONSerialization.data(withJSONObject: environment), as: UTF8.self)
        let run = try await runProcess("/usr/bin/env", ["python3", "-c", script, json, String(columns), extra])
        #expect(run.status == 0, "\(run.output)")
        return run.output
    }

    static func withoutColour(_ text: String) -> String {
        text.replacing(/\u{1B}\[[0-9;]*m/, with: "")
    }

    /// A stopped server's database (or PostgreSQL URL) holding a CJK campaign, a long one and 1,500 sends.
    static func seeded(_ kind: StoreKind) async throws -> StoreServer {
        let store = try await StoreServer.start(kind, name: "tty")
        let server = store.server
        let admin = ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/json"]
        for (id, campaign, sent) in [("p1", "新品 上架", 1_500), ("p2", longName, 3)] {
            let body = try JSONSerialization.data(withJSONObject: ["campaign": campaign, "sent": sent])
            _ = try await httpRequest(server.baseURL.appendingPathComponent("v1/pushes/\(id)"), method: "PUT", headers: admin, body: body)
        }
        let receipts = (0..<500).map { #"{"push_id":"p1","receipt_id":"a\#($0)"}"# } + [#"{"push_id":"p2"}"#]
        _ = try await httpRequest(
            server.baseURL.appendingPathComponent("v1/receipts"), method: "POST", headers: ["Content-Type": "application/json"],
            body: Data(("[" + receipts.joined(separator: ",") + "]").utf8))
        #expect(try await server.stop() == 0)
        return store
    }

    @Test(arguments: StoreKind.allCases)
    func tablesFitTheTerminalAndPipesGetData(kind: StoreKind) async throws {
        let store = try await Self.seeded(kind)
        let database = store.database
        for columns in [80, 120] {
            let drawn = try await Self.onTerminal(["report", "campaigns", "--database", database], columns: columns)
            let lines = Self.withoutColour(drawn).split(separator: "\n").map(String.init)
            #expect(drawn.contains("\u{1B}[1m"), "a bold header on a terminal")
            #expect(lines.first?.hasPrefix("campaign") == true, "\(drawn)")
            for line in lines { #expect(HumanTableRenderer.displayWidth(line) <= columns, "\(columns): \(line)") }
            let cjk = try #require(lines.first { $0.hasPrefix("新品 上架") }, "\(drawn)")
            #expect(cjk.contains("1,500") && cjk.contains("33.3%"), "\(cjk)")
            let long = try #require(lines.first { $0.hasPrefix("Black Friday") }, "\(drawn)")
            #expect(long.contains("…") && !long.contains(Self.longName), "\(long)")
        }
        // COLUMNS, when set, overrides the terminal's own width.
        let narrowed = try await Self.onTerminal(["report", "campaigns", "--database", database], columns: 120, environment: ["COLUMNS": "80"])
        let narrowedLines = Self.withoutColour(narrowed).split(separator: "\n").map(String.init)
        #expect(narrowedLines.allSatisfy { HumanTableRenderer.displayWidth($0) <= 80 }, "\(narrowed)")
        #expect(narrowedLines.contains { HumanTableRenderer.displayWidth($0) > 72 }, "drawn for 80 columns: \(narrowed)")
        // NO_COLOR turns colour off; --wide shows every column by its CSV name.
        let plain = try await Self.onTerminal(["report", "campaigns", "--database", database], columns: 120, environment: ["NO_COLOR": "1"])
        #expect(!plain.contains("\u{1B}["))
        let wide = try await Self.onTerminal(["report", "campaigns", "--wide", "--database", database], columns: 400)
        let header = Self.withoutColour(wide).split(separator: "\n").first.map(String.init) ?? ""
        #expect(header.hasPrefix("campaign ") && header.contains(" displayed_unique ") && header.contains("unexplained_loss"), "\(header)")
        #expect(wide.contains(Self.longName))
        // `rate` prints the percent for people and the number for pipes.
        let rate = try await Self.onTerminal(["rate", "--campaign", "新品 上架", "--database", database], columns: 80)
        #expect(rate.trimmingCharacters(in: .whitespacesAndNewlines) == "33.3%")
        let piped = try await runPushtally(["rate", "--campaign", "新品 上架", "--database", database])
        #expect(piped.stdout == "0.3333333333333333\n")
        let csv = try await runPushtally(["report", "campaigns", "--database", database])
        #expect(csv.stdout.hasPrefix("campaign,pushes,sent,") && !csv.stdout.contains("\u{1B}["))
        let forced = try await runPushtally(["report", "campaigns", "--format", "table", "--database", database], environment: ["COLUMNS": "80"])
        #expect(forced.stdout.contains("33.3%") && !forced.stdout.contains("\u{1B}["), "a table into a pipe, without colour")
        await store.cleanUp()
    }
}
