import Foundation
import PushTallyTestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receipts posted by concurrent clients while a fault is injected: each client sends receipts with ids of
/// its own, and sends each again until a 2xx acknowledges it (an app's outbox does the same), noting how
/// long every answer took and what it said.
final class FaultLoad: @unchecked Sendable {
    /// What the load saw.
    struct Tally {
        /// Acknowledgements per receipt id.
        var acknowledged: [String: Int] = [:]
        /// Receipts given up on: never acknowledged before the load ended.
        var unacknowledged: Set<String> = []
        var statuses: [Int: Int] = [:]
        /// 503 answers without `Retry-After`.
        var unavailableWithoutRetryAfter = 0
        /// 503 answers with `Retry-After: 1`: shed at the door (too many requests waiting, or a full queue).
        var shed = 0
        /// Requests that got no answer at all (a transport error or the client's own timeout).
        var unanswered = 0
        var slowest: Duration = .zero
        var requests = 0
    }

    let url: URL
    let pushID: String
    /// A connection per client: URLSession's default of 6 per host would queue the others inside the client,
    /// and their wait would count as the collector's.
    let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 64
        return URLSession(configuration: configuration)
    }()
    private let lock = NSLock()
    private var tally = Tally()
    private var stopping = false

    init(collector: URL, pushID: String) {
        self.url = collector.appendingPathComponent("v1/receipts")
        self.pushID = pushID
    }

    var snapshot: Tally { lock.withLock { tally } }

    /// Clients stop starting receipts; each still sends the one it holds until acknowledged or `giveUp` passes.
    func stop() { lock.withLock { stopping = true } }

    /// Runs `clients` clients until ``stop()``; a receipt not acknowledged by `giveUp` after the stop is left
    /// unacknowledged. Every other receipt is sent twice on purpose (a flaky network's retry), so commits take
    /// the transaction path as well as the one-statement one.
    func run(clients: Int, giveUp: Duration = .seconds(30)) async {
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<clients {
                group.addTask { await self.client(client, giveUp: giveUp) }
            }
        }
    }

    private func client(_ client: Int, giveUp: Duration) async {
        var index = 0
        var stoppedAt: ContinuousClock.Instant?
        // A cancelled test stops its clients too: their requests would fail at once, in a loop without end.
        while lock.withLock({ !stopping }), !Task.isCancelled {
            let receiptID = "\(pushID)-c\(client)-r\(index)"
            for _ in 0..<(index % 2 == 0 ? 2 : 1) {
                var acknowledged = false
                while !acknowledged {
                    if Task.isCancelled { return }
                    acknowledged = await post(receiptID, device: "d\(client)-\(index)")
                    if lock.withLock({ stopping }), stoppedAt == nil { stoppedAt = .now }
                    if !acknowledged, let stoppedAt, ContinuousClock.now - stoppedAt > giveUp {
                        lock.withLock { _ = tally.unacknowledged.insert(receiptID) }
                        return
                    }
                    // Sooner than Retry-After, to keep the load on during the fault.
                    if !acknowledged { try? await Task.sleep(for: .milliseconds(100)) }
                }
            }
            index += 1
        }
    }

    /// A GET on the collector's `path` through this load's session (not queued behind its clients): the
    /// status, `Retry-After`, the body, and how long the answer took.
    func get(_ path: String, token: String? = nil) async throws -> (status: Int, retryAfter: String?, body: String, took: Duration) {
        var request = URLRequest(url: url.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(path))
        request.timeoutInterval = 60
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let started = ContinuousClock.now
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        return (http.statusCode, http.value(forHTTPHeaderField: "Retry-After"), String(decoding: data, as: UTF8.self), ContinuousClock.now - started)
    }

    /// One attempt; whether it was acknowledged.
    private func post(_ receiptID: String, device: String) async -> Bool {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = 60
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"push_id":"\#(pushID)","receipt_id":"\#(receiptID)","device_id":"\#(device)"}"#.utf8)
        let started = ContinuousClock.now
        let response = try? await session.data(for: request).1 as? HTTPURLResponse
        let took = ContinuousClock.now - started
        return lock.withLock {
            tally.requests += 1
            tally.slowest = max(tally.slowest, took)
            guard let response else {
                tally.unanswered += 1
                return false
            }
            tally.statuses[response.statusCode, default: 0] += 1
            if response.statusCode == 503 {
                switch response.value(forHTTPHeaderField: "Retry-After") {
                case nil: tally.unavailableWithoutRetryAfter += 1
                case "1": tally.shed += 1
                default: break
                }
            }
            guard (200..<300).contains(response.statusCode) else { return false }
            tally.acknowledged[receiptID, default: 0] += 1
            return true
        }
    }
}

/// What a process holds, from `/proc`.
struct Footprint: CustomStringConvertible {
    let openFiles: Int
    let residentKilobytes: Int

    init(of pid: Int32) {
        openFiles = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
        residentKilobytes = line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? -1
    }

    var description: String { "\(openFiles) open files, \(residentKilobytes / 1024) MB resident" }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
