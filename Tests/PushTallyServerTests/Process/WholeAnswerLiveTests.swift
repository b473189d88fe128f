import Foundation
import PushTallyTestSupport
import Testing

/// Every answer reaches its client whole, on the fast path and through the router: a report written to a client
/// that closes after it (`Connection: close`, HTTP/1.0, Python's `urllib`) or reads slowly carries every byte its
/// `Content-Length` promised, and a request that asks to upgrade the protocol is answered as HTTP/1.1 with the
/// connection kept for the next one (RFC 9110 §7.8).
@Suite(.serialized) struct WholeAnswerLiveTests {
    static let paths: [[String]] = [[], ["--no-fast-path"]]

    /// A server holding `campaigns` campaigns of names some 250 bytes long: a report of several megabytes.
    static func serverWithALargeReport(_ arguments: [String], campaigns: Int = 10_000) async throws -> ServerProcess {
        let server = try ServerProcess(extraArguments: arguments)
        try await server.start()
        let padding = String(repeating: "長い名前", count: 20)
        let records = (0..<campaigns).map { index in
            #"{"push_id":"p\#(index)","campaign":"campaign \#(index) \#(padding)","targeted":10,"sent":9}"#
        }
        // In parts: the whole list of a large report is more than one request body may be.
        for start in stride(from: 0, to: records.count, by: 10_000) {
            let registered = try await httpRequest(
                server.baseURL.appendingPathComponent("v1/pushes"), method: "POST",
                headers: ["Authorization": "Bearer \(server.adminToken)", "Content-Type": "application/x-ndjson"],
                body: Data(records[start..<min(records.count, start + 10_000)].joined(separator: "\n").utf8))
            try #require(registered.status == 200, "\(String(decoding: registered.body, as: UTF8.self).prefix(300))")
        }
        return server
    }

    /// Reads the campaigns report three ways that close the connection after it, each in a client nobody here
    /// wrote: `urllib` (which sends `Connection: close`), `curl --http1.0`, and a raw socket with a small
    /// receive buffer that starts reading only after the server has queued as much as it will. A report this
    /// long is written as it is read: chunked to HTTP/1.1, and to HTTP/1.0 in its own version, with no
    /// `Transfer-Encoding`, ending with the connection. Each prints `client framing rows`: how the body was
    /// framed and the campaigns in it once decoded (a cut body fails to decode or counts fewer).
    static let readers = #"""
        import csv, io, json, socket, subprocess, sys, time, urllib.request
        url, token, fmt = sys.argv[1], sys.argv[2], sys.argv[3]
        def rows(body):
            if fmt == "json":
                return len(json.loads(body)["campaigns"])
            return len(list(csv.reader(io.StringIO(body.decode("utf-8"))))) - 1
        def framing(head):
            lines = [l.lower() for l in head.split(b"\r\n")]
            if any(l.startswith(b"transfer-encoding:") and b"chunked" in l for l in lines):
                return "chunked"
            return "length" if any(l.startswith(b"content-length:") for l in lines) else "close"
        def dechunk(body):
            out, rest = b"", body
            while True:
                size, _, rest = rest.partition(b"\r\n")
                size = int(size.split(b";")[0], 16)
                if size == 0:
                    return out
                out, rest = out + rest[:size], rest[size + 2:]
        request = urllib.request.Request(url, headers={"Authorization": "Bearer " + token})
        with urllib.request.urlopen(request) as response:
            body = response.read()
            te = (response.headers["Transfer-Encoding"] or "").lower()
            print("urllib", "chunked" if te == "chunked" else "length" if response.headers["Content-Length"] else "close", rows(body))
        curl = subprocess.run(["curl", "-sS", "--http1.0", "-D", "-", "-H", "Authorization: Bearer " + token, url],
                              capture_output=True, check=True)
        head, _, body = curl.stdout.partition(b"\r\n\r\n")
        print("curl-http1.0", framing(head) + ("/" + head.split(b" ")[0].decode()), rows(body))
        host, port = url.split("/")[2].split(":")
        path = "/" + url.split("/", 3)[3]
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect((host, int(port)))
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n".encode())
        time.sleep(2)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        kind = framing(head)
        print("slow-socket", kind, rows(dechunk(body) if kind == "chunked" else body))
        """#

    @Test(arguments: paths) func aLargeReportArrivesWholeToClientsThatClose(_ arguments: [String]) async throws {
        let server = try await Self.serverWithALargeReport(arguments)
        defer { server.removeFiles() }
        // JSON on one path, CSV on the other: each report of this size takes a debug build seconds to make.
        for format in [arguments.isEmpty ? "json" : "csv"] {
            let url = server.baseURL.absoluteString + "/v1/reports/campaigns?format=\(format)"
            let (status, output) = try await runProcess(
                "/usr/bin/env", ["python3", "-c", Self.readers, url, server.adminToken, format], includingErrors: true)
            try #require(status == 0, "\(output)")
            let lines = output.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.map { $0[0] } == ["urllib", "curl-http1.0", "slow-socket"], "\(output)")
            #expect(lines.map { $0[1] } == ["chunked", "close/HTTP/1.0", "chunked"], "written as read, framed for each version: \(output)")
            for line in lines {
                #expect(line[2] == "10000", "\(format) to \(line[0]): every campaign of the report: \(output)")
            }
        }
        #expect(try await server.stop() == 0)
    }

    /// A keep-alive client that reads a report slowly, for longer than the idle timeout in all, gets all of it;
    /// one that stops reading is closed once it has taken nothing for the idle timeout. The stalled one stops after
    /// its first bytes and reads again only once the server's end of its connection has left ESTABLISHED in
    /// `/proc/net/tcp` (the server closed it), whenever that is: a server slowed by other work takes longer to
    /// fill the socket and then to time out, and no fixed pause covers both. Each prints
    /// `whole received seconds`: whether the chunked body reached its last chunk, its bytes, and the time.
    static let slowReaders = #"""
        import socket, sys, time
        port, token, pace = int(sys.argv[1]), sys.argv[2], sys.argv[3]
        def server_end_established(ours):
            for table in ("/proc/net/tcp", "/proc/net/tcp6"):
                with open(table) as f:
                    for line in f.readlines()[1:]:
                        fields = line.split()
                        local, remote = fields[1].rsplit(":", 1)[1], fields[2].rsplit(":", 1)[1]
                        if int(local, 16) == port and int(remote, 16) == ours:
                            return fields[3] == "01"
            return False
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET /v1/reports/campaigns?format=csv HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
        started = time.monotonic()
        data = bytearray()
        while not data.endswith(b"\r\n0\r\n\r\n"):
            if pace == "stalled" and len(data) > 0:
                ours = s.getsockname()[1]
                while server_end_established(ours) and time.monotonic() - started < 300:
                    time.sleep(0.1)
                pace = "fast"
            elif pace == "slow":
                time.sleep(0.002)
            chunk = s.recv(16384)
            if not chunk:
                break
            data += chunk
        body = len(data) - data.index(b"\r\n\r\n") - 4 if b"\r\n\r\n" in data else 0
        print(1 if data.endswith(b"\r\n0\r\n\r\n") else 0, body, round(time.monotonic() - started, 1))
        """#

    /// The most the kernel may buffer of one connection's outgoing bytes (`tcp_wmem`'s maximum).
    static var sendBufferLimit: Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_wmem", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).last.flatMap { Int($0) } ?? 4 << 20
    }

    @Test(arguments: paths) func aSlowReaderGetsTheWholeReportAndAStalledOneIsClosed(_ arguments: [String]) async throws {
        // Twice what the kernel may hold of it: a stalled reader can then only get all of it if the server waits
        // for it, never because the socket took the whole report at once.
        let reportBytes = 2 * Self.sendBufferLimit
        let server = try await Self.serverWithALargeReport(arguments + ["--idle-timeout", "2"], campaigns: reportBytes / 300)
        defer { server.removeFiles() }
        let (status, output) = try await runProcess(
            "/usr/bin/env", ["python3", "-c", Self.slowReaders, String(server.port), server.adminToken, "slow"], includingErrors: true)
        try #require(status == 0, "\(output)")
        let slow = output.split(separator: " ").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
        #expect(slow[0] == 1 && slow[1] > Double(reportBytes), "a slow reader gets the whole report: \(output)")
        #expect(slow[2] > 2, "the read took longer than the idle timeout, or it proves nothing: \(output)")
        let (stalledStatus, stalledOutput) = try await runProcess(
            "/usr/bin/env", ["python3", "-c", Self.slowReaders, String(server.port), server.adminToken, "stalled"], includingErrors: true)
        try #require(stalledStatus == 0, "\(stalledOutput)")
        let stalled = stalledOutput.split(separator: " ").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
        #expect(stalled[0] == 0 && stalled[1] < slow[1], "a reader that stops is closed before the end: \(stalledOutput)")
        #expect(stalled[2] < 300, "closed, not waited out: \(stalledOutput)")
        #expect(try await server.stop() == 0)
    }

    @Test(arguments: paths) func anUpgradeIsIgnoredAndTheConnectionGoesOn(_ arguments: [String]) async throws {
        let server = try ServerProcess(extraArguments: arguments)
        defer { server.removeFiles() }
        try await server.start()
        for upgrade in ["h2c", "websocket"] {
            let first = "push_id=upgrade-\(upgrade)&receipt_id=first"
            let second = "push_id=upgrade-\(upgrade)&receipt_id=second"
            let request = { (body: String, extra: String) in
                "POST /v1/receipts HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n\(extra)Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
            }
            // Both requests in one write: the second is answered only if the first's Upgrade left the connection
            // speaking HTTP/1.1.
            let bytes = request(first, "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: \(upgrade)\r\nHTTP2-Settings: AAMAAABkAAQAAP__\r\n")
                + request(second, "")
            let answer = try await rawExchange(port: server.port, Array(bytes.utf8), expectResponses: 2)
            let statuses = answer.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }
            #expect(statuses == ["HTTP/1.1 204 No Content", "HTTP/1.1 204 No Content"], "\(upgrade): \(answer)")
        }
        #expect(try await server.stop() == 0)
        #expect(try storedReceiptIDs(server.databasePath, pushID: "upgrade-h2c") == ["first", "second"])
        #expect(try storedReceiptIDs(server.databasePath, pushID: "upgrade-websocket") == ["first", "second"])
    }
}
