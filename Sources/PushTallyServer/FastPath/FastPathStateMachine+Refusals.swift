import NIOCore

/// What a connection cannot go on after (a parser failure, a head RFC 9112 refuses) and a client's half-close:
/// both end the connection only once every answer due before them is written, in order.
extension FastPathStateMachine {
    // MARK: Requests the connection cannot go on after

    /// The bytes are not HTTP/1.1 (SwiftNIO's parser failed), or a head breaks RFC 9112's rules: nothing after
    /// it is read, the requests before it are still answered in order, then its refusal, then the close.
    mutating func refuseAndClose(routerMayAnswer: Bool) -> Refusal {
        if closeAfterAnswers, !isReadingARequest {
            // The connection closes after a request that said so (`Connection: close`, HTTP/1.0): its answer is
            // the last, and nothing after it is answered.
            reading = .discarding(bytes: 0)
            return .ignore
        }
        closeAfterAnswers = true
        if routerMayAnswer, case .passing = reading { return .passToRouter }
        held.removeAll()
        // An ingest request whose body broke is the one refused: its slot is taken, nothing else will fill it.
        let broken: IngestRequest? = if case .ingest(let request, _) = reading { request } else { nil }
        reading = .discarding(bytes: 0)
        if let broken { return .answer(slot: broken.slot) }
        if passedInFlight > 0 {
            refusalWaitsForRouter = true
            return .afterRouter
        }
        answers.append(nil)
        return .answer(slot: firstSlot + answers.count - 1)
    }

    /// Whether a request's body is being read, by this path or the router: its failure is that request's.
    private var isReadingARequest: Bool {
        switch reading {
        case .ingest, .passing: true
        case .idle, .discarding, .awaitingContinue: false
        }
    }

    /// Whether the router's response now being written is the connection's last: nothing of this path's is due
    /// after it, and the connection closes (HTTP/1.0 without keep-alive, a refusal passed to the router).
    var routerResponseIsLast: Bool {
        closeAfterAnswers && passedInFlight == 1 && answers.isEmpty && !refusalWaitsForRouter
    }

    /// The slot of a refusal that waited for the router, once the router's responses have ended.
    mutating func refusalAfterRouter() -> Int? {
        guard refusalWaitsForRouter, passedInFlight == 0 else { return nil }
        refusalWaitsForRouter = false
        answers.append(nil)
        return firstSlot + answers.count - 1
    }

    // MARK: Half-close

    /// The client shut its side down after its last request: `true` to tell the router now (it closes once its
    /// own response is written); otherwise this path's answers come first (``inputClosedMayPass()``).
    mutating func inputClosed() -> Bool {
        if answers.isEmpty, held.isEmpty { return true }
        inputClosedWaiting = true
        return false
    }

    /// Whether a half-close that waited may now be passed on: every answer of this path is written and nothing
    /// waits for the router.
    mutating func inputClosedMayPass() -> Bool {
        guard inputClosedWaiting, answers.isEmpty, held.isEmpty, !refusalWaitsForRouter else { return false }
        inputClosedWaiting = false
        return true
    }
}
