import HTTPTypes
import NIOCore
import NIOHTTP1
import PushTallyCore

/// The fast path's rules for one connection, with no I/O: request parts, answers becoming ready, the router's
/// responses ending, timer checks and a shutdown's quiesce go in; what to do comes out, and ``IngestFastPath``
/// does it.
///
/// - Answers go out in request order whichever path answers each request: a request that needs the other path
///   waits (held, with reads paused) until the answers ahead of it are written.
/// - An ingest body is refused (413) when its declared or received length is over the limit; the rest is read
///   and thrown away, unless it goes on past four times the limit, which closes the connection.
/// - `Connection: close` on an ingest request, or a quiesce, closes once this path's answers are written; what
///   arrives after that is never answered (the client sees the close and retries).
/// - Reads pause while requests are held or `maxPipelined` answers are pending (back-pressure).
/// - The connection's idle and slow-client clock (``ConnectionClock``) is kept here for both paths.
struct FastPathStateMachine {
    struct Configuration {
        /// `false` passes the ingest routes on to the router too (`serve --no-fast-path`): only the clock is kept.
        var answersIngest: Bool
        /// The body limit, the pipeline's.
        var bodyLimit: BodyReader
        /// Pipelined ingest requests answered concurrently before reads pause.
        var maxPipelined: Int
        /// The idle timeout, the minimum body rate and the whole-request limit (``ConnectionClock/Limits``).
        var limits: ConnectionClock.Limits
        var idleTimeout: TimeAmount { limits.idleTimeout }
    }

    /// One of this path's answers.
    struct Answer {
        var head: HTTPResponse
        var body: ByteBuffer?
    }

    /// An ingest request this path answers; the answer goes to `slot` (``answerReady(_:slot:)``).
    struct IngestRequest {
        /// The request target, query included.
        let target: String
        /// The fields the pipeline reads (``NIOHTTP1/HTTPRequestHead/ingestFields``).
        let fields: HTTPFields
        let route: APIRoute
        let kind: EventKind
        let slot: Int
    }

    /// A request that asked `Expect: 100-continue` on an ingest route: its head is judged before its body is read.
    struct ContinueRequest {
        let head: HTTPRequestHead
        let fields: HTTPFields
        let route: APIRoute
        let kind: EventKind
    }

    /// What to do with a request part that arrived, or that waited and may go now.
    enum PartAction {
        /// Nothing: the part was collected, thrown away, or waits for the other path.
        case nothing
        /// Pass the part on to the router.
        case forward(HTTPServerRequestPart)
        /// Run the ingest pipeline on a request that arrived whole.
        case ingest(IngestRequest, body: ByteBuffer)
        /// Answer 413: the request's body is over the limit (the rest of it is thrown away as it comes).
        case refuseTooLarge(IngestRequest)
        /// Close the connection.
        case close
        /// Judge the head alone, then call ``continueAdmitted()`` or ``continueRefused()``; reads pause meanwhile.
        case checkContinue(ContinueRequest)
        /// Write `100 Continue`, then pass the head on to the router.
        case continueThenForward(HTTPServerRequestPart)
        /// Answer `refusal` in `slot`'s turn; the connection closes after it (``refuseAndClose()``).
        case refuse(APIError, slot: Int)
    }

    /// Where the answer to a request the connection cannot go on after goes.
    enum Refusal: Equatable {
        /// In this slot, in its turn; the connection closes after it.
        case answer(slot: Int)
        /// Once the router's responses in flight have ended (``refusalAfterRouter()``).
        case afterRouter
        /// The router is reading that request's body: its body stream fails, and the route answers.
        case passToRouter
        /// The connection already closes after the answers due: what follows the last request is not answered.
        case ignore
    }

    /// What follows writing the answers that were ready.
    enum AfterWrite: Equatable {
        case nothing
        case close
        /// Let the requests that waited for this path's answers go (``releaseNextHeld()``).
        case releaseHeld
        /// Resume reading: every request that arrived whole is answered, and the one still arriving needs its
        /// remaining bytes before it can be answered.
        case read
    }

    enum QuiesceAction: Equatable {
        /// This path's answers are still to come; the connection closes after the last.
        case closeAfterAnswers
        case close
        /// The router has a request in flight: pass the quiesce on, so its handler closes after that response.
        case forwardToRouter
    }

    enum Reading {
        /// Between requests.
        case idle
        /// Collecting an ingest request's body.
        case ingest(IngestRequest, body: ByteBuffer?)
        /// Passing a request's parts on to the router.
        case passing
        /// Throwing away the rest of a refused body, counting it.
        case discarding(bytes: Int)
        /// Waiting, reads paused, for the decision on the head of a request that asked `Expect: 100-continue`.
        case awaitingContinue(ContinueRequest)
    }

    let configuration: Configuration
    var reading = Reading.idle
    /// This path's answers in request order; `nil` until ready. `firstSlot` is the number of the first.
    /// Small at first (both buffers grow as needed): every open connection holds them, and a keep-alive client
    /// rarely has more than one request in flight, or any held.
    var answers = CircularBuffer<Answer?>(initialCapacity: 2)
    var firstSlot = 0
    /// Requests passed on to the router whose response has not ended yet.
    var passedInFlight = 0
    /// Parts of requests that wait for the other path's answers, in arrival order.
    var held = CircularBuffer<HTTPServerRequestPart>(initialCapacity: 1)
    // Set here and by the held-request steps (FastPathStateMachine+Held.swift) only.
    var isReleasingHeld = false
    var releasedAny = false
    var readPending = false
    /// Close once every answer is written (`Connection: close`, HTTP/1.0 without keep-alive, or a quiesce).
    var closeAfterAnswers = false
    /// A refusal waits for the router's responses in flight to end before it takes its slot.
    var refusalWaitsForRouter = false
    /// The client half-closed while answers were still due: tell the router once they are written.
    var inputClosedWaiting = false
    private(set) var clock: ConnectionClock
    /// Bytes arrived that are not yet a whole request head or the end of a request: mid-request, not idle.
    private var partialRequest = false
    /// Router responses queued whole but not yet written to the socket: a slow reader is still being answered,
    /// and is closed only when it takes nothing for the idle timeout (``idleCheck(now:)``).
    private(set) var responsesBeingWritten = 0

    init(_ configuration: Configuration, now: NIODeadline) {
        self.configuration = configuration
        self.clock = ConnectionClock(limits: configuration.limits, now: now)
    }

    /// Whether this path or the router is working on a request that arrived whole.
    var isWaitingForServer: Bool { !answers.isEmpty || passedInFlight > 0 }

    /// This path's requests that arrived whole and are not answered yet. The request whose body is still
    /// arriving holds a slot too, but it cannot be answered before more is read: counting it as pending would
    /// pause reads for an answer that only a read can bring.
    var unansweredWholeRequests: Int {
        if case .ingest = reading { return max(0, answers.count - 1) }
        return answers.count
    }

    var isAwaitingContinue: Bool {
        if case .awaitingContinue = reading { return true }
        return false
    }

    /// Since when the connection has been idle (between requests, or no request yet), or `nil` while a request
    /// is being read or answered: what ``ConnectionRegistry`` evicts by at `--max-connections`.
    var idleSince: NIODeadline? {
        guard case .idle = reading, !partialRequest, held.isEmpty, !isWaitingForServer, responsesBeingWritten == 0 else { return nil }
        return clock.lastActivity
    }

    /// When the request being read began and how fast it arrives on average: what ``ConnectionRegistry``
    /// closes, slowest first, when no connection is idle; `nil` between requests.
    func requestArrival(now: NIODeadline) -> (began: NIODeadline, bytesPerSecond: Double)? {
        guard let request = clock.request, let rate = clock.arrivalRate(now: now) else { return nil }
        return (request.began, rate)
    }

    // MARK: Events

    /// The connection opened: the first idle check is due at the returned deadline.
    mutating func becameActive(now: NIODeadline) -> NIODeadline {
        clock.touch(now: now)
        return clock.deadline
    }

    /// Bytes arrived, before the HTTP decoder makes parts of them (which come next, if they make any).
    mutating func bytesArrived() {
        partialRequest = true
    }

    /// A request part arrived from the HTTP decoder.
    mutating func received(_ part: HTTPServerRequestPart, now: NIODeadline) -> PartAction {
        switch part {
        case .head:
            clock.requestBegan(now: now)
            partialRequest = false
        case .body(let chunk): clock.received(bytes: chunk.readableBytes, now: now)
        case .end:
            clock.requestEnded(now: now)
            partialRequest = false
        }
        if !held.isEmpty {
            held.append(part)
            return .nothing
        }
        if let action = process(part) { return action }
        // It needs the other path, which has answers to write first.
        held.append(part)
        return .nothing
    }

    /// The channel asks for more to read: `true` to read now; otherwise reads resume once requests go.
    mutating func readRequested() -> Bool {
        if !held.isEmpty || isAwaitingContinue || unansweredWholeRequests >= configuration.maxPipelined {
            readPending = true
            return false
        }
        return true
    }

    /// A response the router wrote ended: `true` when held requests may go (``releaseNextHeld()``).
    mutating func routerResponseEnded(now: NIODeadline) -> Bool {
        guard passedInFlight > 0 else { return false }
        passedInFlight -= 1
        clock.touch(now: now)
        return passedInFlight == 0
    }

    /// The answer of the ingest request in `slot` is ready: write ``nextAnswerToWrite()`` until it is `nil`.
    mutating func answerReady(_ answer: Answer, slot: Int) {
        answers[offset: slot - firstSlot] = answer
    }

    /// The next answer that is ready with no unanswered request ahead of it, and whether the connection closes
    /// after it (its answer says `Connection: close` then).
    mutating func nextAnswerToWrite() -> (answer: Answer, isLast: Bool)? {
        guard let first = answers.first, let answer = first else { return nil }
        answers.removeFirst()
        firstSlot += 1
        return (answer, closeAfterAnswers && answers.isEmpty)
    }

    /// The answers from ``nextAnswerToWrite()`` were written and flushed.
    mutating func answersWritten(now: NIODeadline) -> AfterWrite {
        clock.touch(now: now)
        guard answers.isEmpty else {
            // Only the request still arriving is unanswered: it needs the rest of its bytes.
            guard readPending, unansweredWholeRequests == 0, held.isEmpty, !isAwaitingContinue else { return .nothing }
            readPending = false
            return .read
        }
        if closeAfterAnswers { return .close }
        return isReleasingHeld ? .nothing : .releaseHeld
    }

    /// The idle timer fired.
    mutating func idleCheck(now: NIODeadline) -> ConnectionClock.Decision {
        if responsesBeingWritten > 0 {
            // A reader that takes part of the answer now and then keeps its connection (``writeProgressed(now:)``);
            // one that takes nothing for the idle timeout is closed, as a client that sends nothing is.
            let due = clock.lastActivity + configuration.idleTimeout
            return now >= due ? .close : .checkAgain(due)
        }
        return clock.check(now: now, waitingForServer: isWaitingForServer)
    }

    /// A router response was queued whole; its bytes reach the socket as the client reads them.
    mutating func responseWriteBegan() {
        responsesBeingWritten += 1
    }

    /// The socket took more of what was queued (the channel became writable again), or all of it.
    mutating func writeProgressed(now: NIODeadline) {
        if responsesBeingWritten > 0 { clock.touch(now: now) }
    }

    /// A router response was written to the socket to its last byte (or failed with the connection).
    mutating func responseWritten(now: NIODeadline) {
        responsesBeingWritten = max(0, responsesBeingWritten - 1)
        clock.touch(now: now)
    }
}
