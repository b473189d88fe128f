import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension PushTallyClient {
    /// Sends what is queued, a batch at a time, until the outbox is empty (but for the events of routes the
    /// collector does not have), a send fails or `deadline` passes; returns how many events the collector
    /// took. The caller holds the flush lock.
    func sendQueued(until deadline: Date) async -> Int {
        var sent = 0
        var missingRoutes: Set<Route> = []
        while Date() < deadline {
            // Read again each round, for what other processes queued meanwhile.
            let batches = queuedBatches().filter { !missingRoutes.contains($0.route) }
            guard !batches.isEmpty else { break }
            for batch in batches where !missingRoutes.contains(batch.route) {
                guard Date() < deadline else { return sent }
                switch await send(batch, deadline: deadline) {
                case .routeMissing:
                    // A collector older than the route (sessions and conversions came after receipts): its
                    // events stay queued for an upgraded collector (or until they age out), and the other
                    // routes' events still go out.
                    missingRoutes.insert(batch.route)
                    await recordFailure(retryAfter: nil)
                case .delivered(let refused):
                    for name in batch.names { outbox.remove(name) }
                    sent += batch.lines.count - refused
                    _ = await outbox.updateState { state in
                        state.rejected += refused
                        state.backoff.recordSuccess()
                    }
                case .retryLater(let retryAfter):
                    await recordFailure(retryAfter: retryAfter)
                    return sent
                }
            }
        }
        return sent
    }

    private func recordFailure(retryAfter: TimeInterval?) async {
        _ = await outbox.updateState { state in
            state.backoff.recordFailure(
                now: Date().timeIntervalSince1970, base: configuration.baseBackoff, cap: configuration.maxBackoff,
                retryAfter: retryAfter)
        }
    }

    /// Everything queued, grouped by route into requests.
    private func queuedBatches() -> [OutboxBatch] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var events: [(name: String, route: Route, line: Data)] = []
        for name in outbox.names() {
            guard let event = outbox.read(name), let line = try? event.wireLine(encoder: encoder) else {
                outbox.remove(name)  // unreadable (a torn write cannot happen: files are renamed in whole)
                continue
            }
            events.append((name, event.route, line))
        }
        return OutboxBatch.group(events, batchSize: configuration.batchSize)
    }

    private enum Outcome {
        /// The collector answered for every event; `refused` of them were rejected and will not be resent.
        case delivered(refused: Int)
        /// Nothing was acknowledged: keep everything and back off.
        case retryLater(retryAfter: TimeInterval?)
        /// The collector has no such route (404): keep the batch, and send the other routes' batches.
        case routeMissing
    }

    private func send(_ batch: OutboxBatch, deadline: Date) async -> Outcome {
        var request = URLRequest(url: endpoint.appendingPathComponent(batch.route.path))
        request.httpMethod = "POST"
        // Never past the deadline (the extension must hand its content back in time); a floor only so that a
        // deadline already reached still makes a valid request.
        request.timeoutInterval = max(0.1, min(30, deadline.timeIntervalSinceNow))
        request.setValue("application/x-ndjson", forHTTPHeaderField: "Content-Type")
        if let ingestKey { request.setValue("Bearer \(ingestKey)", forHTTPHeaderField: "Authorization") }
        request.httpBody = batch.body
        guard let (data, response) = await exchange(request, deadline: deadline), let http = response as? HTTPURLResponse else {
            return .retryLater(retryAfter: nil)
        }
        struct Answer: Decodable {
            struct Rejected: Decodable { let index: Int }
            let accepted: Int
            let rejected: [Rejected]
        }
        switch http.statusCode {
        case 200..<300, 400:
            // A 400 batch answer names each refused event; anything else unreadable is retried later.
            guard let answer = try? JSONDecoder().decode(Answer.self, from: data) else {
                return http.statusCode == 400 ? .retryLater(retryAfter: nil) : .delivered(refused: 0)
            }
            return .delivered(refused: answer.rejected.count)
        case 404:
            return .routeMissing
        default:
            let retryAfter = (http.value(forHTTPHeaderField: "Retry-After")).flatMap(TimeInterval.init)
            return .retryLater(retryAfter: retryAfter)
        }
    }

    /// The collector's answer, or `nil` when it failed or the deadline came first. A request's timeout is only
    /// an idle timeout (and Linux's URLSession rounds it down to whole seconds), so the deadline is kept here:
    /// the request is cancelled when it passes. Both the answer and the deadline arrive on URLSession's and
    /// Dispatch's own queues, never through a task, so a busy cooperative pool (an app under load) cannot
    /// start the deadline's timer late, and a cancelled request need not wind down before the caller resumes.
    private func exchange(_ request: URLRequest, deadline: Date) async -> (Data, URLResponse)? {
        let session = session
        let first = FirstAnswer()
        return await withCheckedContinuation { (continuation: CheckedContinuation<(Data, URLResponse)?, Never>) in
            let task = session.dataTask(with: request) { data, response, _ in
                guard first.claim() else { return }
                continuation.resume(returning: data.flatMap { data in response.map { (data, $0) } })
            }
            let wait = max(0, min(deadline.timeIntervalSinceNow, 3_600))
            DispatchQueue.global().asyncAfter(deadline: .now() + wait) {
                guard first.claim() else { return }
                task.cancel()
                continuation.resume(returning: nil)
            }
            task.resume()
        }
    }
}
