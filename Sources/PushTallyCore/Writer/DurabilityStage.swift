import Foundation

/// The second stage of a group commit whose transactions return before their log is on disk: one thread
/// that makes everything committed so far durable with one sync, then gives those commits their answers.
///
/// The writer thread hands each committed transaction's answers here and goes on to the next transaction
/// while the sync runs, so the disk's sync (and the kernel's writeback work inside it, which on this kind of
/// machine is CPU the writer would otherwise spend) overlaps the next commit's work instead of adding to it.
/// A sync covers every transaction handed over before it began; none is answered before one has returned.
///
/// After a failed sync the log's state on disk is unknown (a later sync may report success for pages the
/// kernel dropped), so every answer from then on is that failure: nothing more is acknowledged until the
/// process restarts and recovers from what the disk holds.
package final class DurabilityStage: @unchecked Sendable {
    /// Makes every write issued so far durable; throws when it cannot say so.
    package typealias Sync = @Sendable () throws -> Void
    /// Gives one committed transaction's answers: success once durable, or the failure that stopped it.
    package typealias Answer = @Sendable (Result<Void, any Error>) -> Void

    private let condition = NSCondition()
    private var pending: [Answer] = []
    private var failure: (any Error)?
    private var closed = false
    private var running = true
    private let finished = DispatchSemaphore(value: 0)
    private let sync: Sync

    package init(name: String, sync: @escaping Sync) {
        self.sync = sync
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        thread.start()
    }

    /// Queues a committed transaction's answers, given after the next sync (at once if closed).
    package func committed(_ answer: @escaping Answer) {
        condition.lock()
        guard running else {
            condition.unlock()
            answer(.failure(WriterError.closed))
            return
        }
        pending.append(answer)
        condition.broadcast()
        condition.unlock()
    }

    /// Blocks while a commit already waits for the next sync: one commit may run beside a sync, not more.
    ///
    /// Without it a writer faster than the disk makes many small commits behind one sync, each paying a
    /// commit's fixed cost for the same durability; waiting here lets the queue grow into one larger commit.
    package func waitForRoom() {
        condition.lock()
        while !pending.isEmpty && running { condition.wait() }
        condition.unlock()
    }

    /// Syncs and answers everything queued, then ends the thread; safe to call more than once.
    package func close() {
        condition.lock()
        let wasOpen = !closed
        closed = true
        condition.broadcast()
        condition.unlock()
        if wasOpen { finished.wait() }
    }

    private func run() {
        condition.lock()
        while true {
            while pending.isEmpty && !closed { condition.wait() }
            if pending.isEmpty {
                running = false
                condition.broadcast()
                break
            }
            let answers = pending
            pending = []
            condition.broadcast()
            var result: Result<Void, any Error> = failure.map { .failure($0) } ?? .success(())
            condition.unlock()
            if case .success = result {
                do {
                    try sync()
                } catch {
                    result = .failure(error)
                }
            }
            for answer in answers { answer(result) }
            condition.lock()
            if case .failure(let error) = result, failure == nil { failure = error }
        }
        condition.unlock()
        finished.signal()
    }
}
