import NIOConcurrencyHelpers
import NIOCore

/// Carries the writer thread's answers to one event loop, a batch per task.
///
/// A group commit answers every request it held, one after another on the writer thread; an `execute` per
/// answer would take NIO's two locks and a task each, on that one thread. Here the first answer posted
/// schedules one task and the others join it until it runs.
final class AnswerMailbox: @unchecked Sendable {
    private struct Letter {
        let connection: NIOLoopBound<(IngestFastPath, ChannelHandlerContext)>
        let slot: Int
        let response: IngestResponse
    }

    let eventLoop: any EventLoop
    private let lock = NIOLock()
    private var pending: [Letter] = []
    /// The array the last drain emptied, handed back to `pending` at the next, so neither reallocates (an array
    /// emptied while a second reference holds it is copied first).
    private var spare: [Letter] = []

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Queues the answer for `connection` (a handler on this mailbox's loop); on any thread.
    func post(_ response: IngestResponse, slot: Int, to connection: NIOLoopBound<(IngestFastPath, ChannelHandlerContext)>) {
        let first = lock.withLock {
            pending.append(Letter(connection: connection, slot: slot, response: response))
            return pending.count == 1
        }
        if first { eventLoop.execute { self.drain() } }
    }

    private func drain() {
        // Drains run one at a time on the mailbox's loop; only `post` runs beside them.
        var letters = lock.withLock {
            var taken = spare
            spare = []
            swap(&taken, &pending)
            return taken
        }
        for letter in letters {
            let (handler, context) = letter.connection.value
            handler.answer(letter.response, slot: letter.slot, context)
        }
        letters.removeAll(keepingCapacity: true)
        lock.withLock { spare = letters }
    }
}

/// One ``AnswerMailbox`` per event loop, shared by that loop's connections.
final class AnswerMailboxes: Sendable {
    private let boxes = NIOLockedValueBox([ObjectIdentifier: AnswerMailbox]())

    /// The mailbox of `eventLoop`, made on first use (once per loop, looked up once per connection).
    func mailbox(for eventLoop: any EventLoop) -> AnswerMailbox {
        boxes.withLockedValue { boxes in
            if let box = boxes[ObjectIdentifier(eventLoop)] { return box }
            let box = AnswerMailbox(eventLoop: eventLoop)
            boxes[ObjectIdentifier(eventLoop)] = box
            return box
        }
    }
}
