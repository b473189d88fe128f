/// Requests ended before their time: a body the idle timer gave up on, and a graceful shutdown.
extension FastPathStateMachine {
    /// The idle timer is closing the connection while an ingest request's body is still arriving: when that
    /// request is the one owed an answer next, it is answered `408` before the close (throwing away whatever
    /// more of it comes), and this returns it. A request whose answer would have to wait for others' is not.
    mutating func timedOutRequest() -> IngestRequest? {
        guard case .ingest(let request, _) = reading, passedInFlight == 0, held.isEmpty, answers.count == 1,
            firstSlot == request.slot
        else { return nil }
        reading = .discarding(bytes: 0)
        closeAfterAnswers = true
        return request
    }

    /// A graceful shutdown began: requests not yet started are never answered.
    mutating func quiesce() -> QuiesceAction {
        // What is held begins with a request's head; the rest of that request is thrown away as it comes.
        if !held.isEmpty || isAwaitingContinue { reading = .discarding(bytes: 0) }
        held.removeAll()
        closeAfterAnswers = true
        if passedInFlight > 0 {
            // The router's request in flight: its handler closes after that response (this path's answers are
            // never in flight at the same time: a request of one path waits for the other's answers).
            return .forwardToRouter
        }
        return answers.isEmpty ? .close : .closeAfterAnswers
    }
}
