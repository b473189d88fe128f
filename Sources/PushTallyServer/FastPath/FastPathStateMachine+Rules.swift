import HTTPTypes
import NIOCore
import NIOHTTP1
import PushTallyCore

extension FastPathStateMachine {
    // MARK: Expect: 100-continue

    /// The request that waited for a decision on its head may send its body: write `100 Continue`, then do what
    /// is returned; `nil` when it no longer waits (a quiesce came first) and nothing is to be written.
    mutating func continueAdmitted() -> PartAction? {
        guard case .awaitingContinue(let request) = reading else { return nil }
        if configuration.answersIngest {
            reading = .idle
            return startIngest(
                IngestRequest(
                    target: request.head.uri, fields: request.fields, route: request.route, kind: request.kind,
                    slot: firstSlot + answers.count),
                keepAlive: request.head.isKeepAlive)
        }
        passedInFlight += 1
        reading = .passing
        return .forward(.head(request.head))
    }

    /// The request that waited for a decision on its head is refused: its answer goes to the returned slot
    /// (``answerReady(_:slot:)``) and the connection closes after it, its body never read; `nil` when it no
    /// longer waits.
    mutating func continueRefused() -> Int? {
        guard case .awaitingContinue = reading else { return nil }
        let slot = firstSlot + answers.count
        answers.append(nil)
        held.removeAll()
        closeAfterAnswers = true
        // Anything the client sends anyway, before it sees the answer, is thrown away.
        reading = .discarding(bytes: 0)
        return slot
    }

    // MARK: Rules

    /// What to do with a part, or `nil` when it must wait for the other path's answers (nothing changes then).
    mutating func process(_ part: HTTPServerRequestPart) -> PartAction? {
        switch (reading, part) {
        case (.idle, .head(let head)):
            if closeAfterAnswers {
                reading = .discarding(bytes: 0)
                return .nothing
            }
            if let refusal = head.conformanceRefusal {
                // In its turn: after the router's responses in flight, like any request of this path.
                if passedInFlight > 0 { return nil }
                guard case .answer(let slot) = refuseAndClose(routerMayAnswer: false) else { return nil }
                return .refuse(refusal, slot: slot)
            }
            let expectsContinue = head.expectsContinue
            if configuration.answersIngest || expectsContinue, case let (route, kind)? = head.ingestRoute {
                if passedInFlight > 0 { return nil }
                guard expectsContinue else {
                    return startIngest(
                        IngestRequest(target: head.uri, fields: head.ingestFields, route: route, kind: kind, slot: firstSlot + answers.count),
                        keepAlive: head.isKeepAlive)
                }
                // `100 Continue` may only be written with nothing unanswered ahead of it.
                if !answers.isEmpty { return nil }
                let request = ContinueRequest(head: head, fields: head.ingestFields, route: route, kind: kind)
                reading = .awaitingContinue(request)
                return .checkContinue(request)
            }
            if !answers.isEmpty || (expectsContinue && passedInFlight > 0) { return nil }
            passedInFlight += 1
            // HTTP/1.0 without keep-alive: the router answers this one, and nothing after it is read.
            if !head.isKeepAlive { closeAfterAnswers = true }
            reading = .passing
            return expectsContinue ? .continueThenForward(part) : .forward(part)
        case (.awaitingContinue, _):
            return nil
        case (.ingest(let request, var body), .body(var chunk)):
            let total = (body?.readableBytes ?? 0) + chunk.readableBytes
            guard configuration.bodyLimit.admits(bytes: total) else {
                reading = .discarding(bytes: total)
                return .refuseTooLarge(request)
            }
            reading = .idle  // lets `body` be appended to without a copy
            if body == nil {
                // Most bodies come in one part: it is kept as it is, not copied.
                body = chunk
            } else {
                body!.writeBuffer(&chunk)
            }
            reading = .ingest(request, body: body)
            return .nothing
        case (.ingest(let request, let body), .end):
            reading = .idle
            return .ingest(request, body: body ?? ByteBuffer())
        case (.passing, _):
            if case .end = part { reading = .idle }
            return .forward(part)
        case (.discarding, .end):
            reading = .idle
            return .nothing
        case (.discarding(let bytes), .body(let chunk)):
            reading = .discarding(bytes: bytes + chunk.readableBytes)
            return configuration.bodyLimit.givesUpDiscarding(after: bytes + chunk.readableBytes) ? .close : .nothing
        case (.discarding, .head):
            return .nothing
        case (.idle, _), (.ingest, .head):
            // Not HTTP as the decoder delivers it; let the router's handling refuse it.
            reading = .passing
            passedInFlight += 1
            return .forward(part)
        }
    }

    /// - Parameter keepAlive: whether the connection may stay open after this request (`Connection: close`, and
    ///   HTTP/1.0 without `keep-alive`, say no).
    mutating func startIngest(_ request: IngestRequest, keepAlive: Bool) -> PartAction {
        answers.append(nil)
        if !keepAlive { closeAfterAnswers = true }
        guard configuration.bodyLimit.admitsDeclaredLength(request.fields) else {
            reading = .discarding(bytes: 0)
            return .refuseTooLarge(request)
        }
        reading = .ingest(request, body: nil)
        return .nothing
    }
}
