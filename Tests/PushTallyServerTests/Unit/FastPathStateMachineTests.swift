import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

@testable import PushTallyServer

/// The fast path's connection rules, driven the way ``IngestFastPath`` drives them, with no socket and no
/// channel: each step lists what the handler would do.
@Suite struct FastPathStateMachineTests {
    /// A connection under test: the state machine and a stand-in for the handler's side of it.
    struct Connection {
        var machine: FastPathStateMachine
        var now = NIODeadline.uptimeNanoseconds(1_000_000_000)

        init(maxBodyBytes: Int = 100, maxPipelined: Int = 64, answersIngest: Bool = true, idleTimeout: TimeAmount = .seconds(30)) {
            machine = FastPathStateMachine(
                .init(answersIngest: answersIngest, bodyLimit: BodyReader(maxBytes: maxBodyBytes), maxPipelined: maxPipelined, limits: .init(idleTimeout: idleTimeout)),
                now: now)
            _ = machine.becameActive(now: now)
        }

        /// Each part in turn, and what the handler does with it.
        mutating func receive(_ parts: HTTPServerRequestPart...) -> [String] {
            var done: [String] = []
            for part in parts {
                done += perform(machine.received(part, now: now))
            }
            return done
        }

        /// The pipeline answered the request in `slot` with `status`.
        mutating func answer(_ slot: Int, _ status: HTTPResponse.Status) -> [String] {
            machine.answerReady(.init(head: HTTPResponse(status: status), body: nil), slot: slot)
            return writeReadyAnswers()
        }

        /// The router's response ended.
        mutating func routerEnded() -> [String] {
            machine.routerResponseEnded(now: now) ? releaseHeld() : []
        }

        mutating func perform(_ action: FastPathStateMachine.PartAction) -> [String] {
            switch action {
            case .nothing: return []
            case .forward(.head(let head)): return ["router: \(head.method.rawValue) \(head.uri)"]
            case .forward(.body(let body)): return ["router: body \(String(buffer: body))"]
            case .forward(.end): return ["router: end"]
            case .ingest(let request, let body): return ["ingest \(request.slot): \(request.route.path) \(String(buffer: body))"]
            // The handler answers a refusal at once.
            case .refuseTooLarge(let request): return ["refuse \(request.slot)"] + answer(request.slot, .contentTooLarge)
            case .close: return ["close"]
            case .checkContinue(let request): return ["check \(request.route.path)"]
            case .continueThenForward(.head(let head)): return ["100", "router: \(head.method.rawValue) \(head.uri)"]
            case .continueThenForward: return ["100"]
            case .refuse(let refusal, let slot): return ["refuse \(slot) \(refusal.code)"] + answer(slot, refusal.status)
            }
        }

        mutating func writeReadyAnswers() -> [String] {
            var done: [String] = []
            while case let (answer, isLast)? = machine.nextAnswerToWrite() {
                done.append("write \(answer.head.status.code)" + (isLast ? " (Connection: close)" : ""))
            }
            guard !done.isEmpty else { return [] }
            switch machine.answersWritten(now: now) {
            case .nothing: return done
            case .close: return done + ["close"]
            case .releaseHeld: return done + releaseHeld()
            case .read: return done + ["read"]
            }
        }

        mutating func releaseHeld() -> [String] {
            guard machine.beginReleasingHeld() else { return [] }
            var done: [String] = []
            while let action = machine.releaseNextHeld() {
                done += perform(action)
            }
            let (readComplete, read) = machine.endReleasingHeld()
            if readComplete { done.append("read complete") }
            if read { done.append("read") }
            return done
        }
    }

    /// A head as SwiftNIO's HTTP/1 decoder delivers it (the fast path sits before the conversion to HTTPTypes).
    static func head(_ method: HTTPRequest.Method, _ path: String, _ fields: HTTPFields = [:]) -> HTTPServerRequestPart {
        let headers = HTTPHeaders([("Host", "x")] + fields.map { ($0.name.rawName, $0.value) })
        return .head(HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method.rawValue), uri: path, headers: headers))
    }

    static func receipt(_ fields: HTTPFields = [:]) -> HTTPServerRequestPart { head(.post, "/v1/receipts", fields) }
    static func body(_ text: String) -> HTTPServerRequestPart { .body(ByteBuffer(string: text)) }
    static let end = HTTPServerRequestPart.end(nil)

    @Test func pipelinedRequestsOfBothPathsAreAnsweredInOrder() {
        var connection = Connection()
        #expect(connection.receive(Self.receipt(), Self.body("push_id=a"), Self.end) == ["ingest 0: /v1/receipts push_id=a"])
        // The router's request waits for the receipt's answer; so does everything after it, reads paused.
        #expect(connection.receive(Self.head(.get, "/healthz"), Self.end, Self.head(.post, "/v1/actions?x=1"), Self.body("b"), Self.end) == [])
        #expect(connection.machine.readRequested() == false)
        #expect(connection.answer(0, .noContent) == ["write 204", "router: GET /healthz", "router: end", "read complete"])
        // The action waits for the router's answer in turn.
        #expect(connection.routerEnded() == ["ingest 1: /v1/actions b", "read complete", "read"])
        #expect(connection.receive(Self.receipt(), Self.body("c"), Self.end) == ["ingest 2: /v1/receipts c"])
        // Answers that come back out of order are written in request order.
        #expect(connection.answer(2, .noContent) == [])
        #expect(connection.answer(1, .badRequest) == ["write 400", "write 204"])
    }

    @Test func aConnectionStaysOpenBetweenRequests() {
        var connection = Connection()
        for slot in 0..<3 {
            #expect(connection.receive(Self.receipt(), Self.body("p"), Self.end) == ["ingest \(slot): /v1/receipts p"])
            #expect(connection.answer(slot, .noContent) == ["write 204"])
        }
        #expect(connection.receive(Self.head(.get, "/metrics"), Self.end) == ["router: GET /metrics", "router: end"])
        #expect(connection.routerEnded() == [])
        #expect(connection.receive(Self.receipt(), Self.end) == ["ingest 3: /v1/receipts "])
    }

    @Test func connectionCloseClosesAfterItsAnswerAndDropsWhatFollows() {
        var connection = Connection()
        #expect(connection.receive(Self.receipt(), Self.body("a"), Self.end) == ["ingest 0: /v1/receipts a"])
        #expect(connection.receive(Self.receipt([.connection: "Close"]), Self.body("b"), Self.end) == ["ingest 1: /v1/receipts b"])
        #expect(connection.receive(Self.receipt(), Self.body("c"), Self.end, Self.head(.get, "/healthz"), Self.end) == [])
        #expect(connection.answer(0, .noContent) == ["write 204"])
        #expect(connection.answer(1, .noContent) == ["write 204 (Connection: close)", "close"])
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedAndItsBodyThrownAway() {
        var connection = Connection(maxBodyBytes: 100)
        let tooLong = Self.receipt([.contentLength: "101"])
        #expect(connection.receive(tooLong) == ["refuse 0", "write 413"])
        #expect(connection.receive(Self.body(String(repeating: "x", count: 101)), Self.end) == [])
        // The connection goes on.
        #expect(connection.receive(Self.receipt([.contentLength: "100"]), Self.body("ok"), Self.end) == ["ingest 1: /v1/receipts ok"])
    }

    @Test func aBodyOverTheLimitOnTheWireIsRefusedThenClosedPastFourTimesIt() {
        var connection = Connection(maxBodyBytes: 100)
        let sixty = Self.body(String(repeating: "x", count: 60))
        #expect(connection.receive(Self.receipt(), sixty) == [])
        #expect(connection.receive(sixty) == ["refuse 0", "write 413"])
        // 120 so far; thrown away up to 400 bytes, then the connection closes.
        #expect(connection.receive(sixty, sixty, sixty, sixty) == [])
        #expect(connection.receive(sixty) == ["close"])
        // Short of four times the limit, the rest is read to its end and the next request is answered.
        var patient = Connection(maxBodyBytes: 100)
        #expect(patient.receive(Self.receipt(), sixty, sixty, sixty, Self.end) == ["refuse 0", "write 413"])
        #expect(patient.receive(Self.receipt(), Self.body("next"), Self.end) == ["ingest 1: /v1/receipts next"])
    }

    @Test func aHalfSentRequestIsNotAnsweredAndClosesWhenItStalls() {
        var connection = Connection(idleTimeout: .seconds(30))
        let start = connection.now
        #expect(connection.receive(Self.receipt([.contentLength: "50"]), Self.body("push_id=")) == [])
        // The server is not working on it: its slot waits for the rest, which must keep arriving.
        #expect(connection.machine.idleCheck(now: start + .seconds(29)) == .checkAgain(start + .seconds(30)))
        #expect(connection.machine.idleCheck(now: start + .seconds(30)) == .close)
        // A half-sent request of the router's waits the same way.
        var routed = Connection(idleTimeout: .seconds(30))
        #expect(routed.receive(Self.head(.put, "/v1/pushes/p"), Self.body("{")) == ["router: PUT /v1/pushes/p", "router: body {"])
        #expect(routed.machine.idleCheck(now: start + .seconds(30)) == .close)
    }

    @Test func idleConnectionsCloseButNotWhileTheServerWorks() {
        var connection = Connection(idleTimeout: .seconds(30))
        let start = connection.now
        #expect(connection.machine.idleCheck(now: start + .seconds(10)) == .checkAgain(start + .seconds(30)))
        connection.now = start + .seconds(20)
        #expect(connection.receive(Self.receipt(), Self.body("a"), Self.end) == ["ingest 0: /v1/receipts a"])
        // A slow commit is not the client's idleness.
        #expect(connection.machine.idleCheck(now: start + .seconds(60)) == .checkAgain(start + .seconds(90)))
        connection.now = start + .seconds(61)
        #expect(connection.answer(0, .noContent) == ["write 204"])
        #expect(connection.machine.idleCheck(now: start + .seconds(90)) == .checkAgain(start + .seconds(91)))
        #expect(connection.machine.idleCheck(now: start + .seconds(91)) == .close)
    }

    @Test func aTrickledBodyIsClosedOnEitherPath() {
        for request in [Self.receipt(), Self.head(.put, "/v1/pushes/p")] {
            var connection = Connection(idleTimeout: .seconds(1))
            let start = connection.now
            _ = connection.receive(request)
            // A byte every 200 ms keeps the idle clock fresh but is far under 500 bytes a second.
            for tick in 1...10 {
                connection.now = start + .milliseconds(Int64(tick) * 200)
                _ = connection.receive(Self.body(" "))
            }
            #expect(connection.machine.idleCheck(now: connection.now) == .close)
        }
    }

    @Test func quiesceClosesOnlyAfterThisPathsAnswersAreWritten() {
        var connection = Connection()
        #expect(connection.receive(Self.receipt(), Self.body("a"), Self.end) == ["ingest 0: /v1/receipts a"])
        #expect(connection.receive(Self.head(.get, "/healthz"), Self.body("x")) == [])
        #expect(connection.machine.quiesce() == .closeAfterAnswers)
        // The held request is dropped, the rest of it too when it comes.
        #expect(connection.receive(Self.body("y"), Self.end) == [])
        // Nothing that arrives now is started.
        #expect(connection.receive(Self.receipt(), Self.body("b"), Self.end) == [])
        #expect(connection.answer(0, .noContent) == ["write 204 (Connection: close)", "close"])

        var idle = Connection()
        #expect(idle.machine.quiesce() == .close)

        var routed = Connection()
        #expect(routed.receive(Self.head(.get, "/healthz"), Self.end) == ["router: GET /healthz", "router: end"])
        #expect(routed.machine.quiesce() == .forwardToRouter)
    }

    @Test func readsPauseWhileTooManyAnswersArePendingOrRequestsAreHeld() {
        var connection = Connection(maxPipelined: 2)
        #expect(connection.machine.readRequested() == true)
        #expect(connection.receive(Self.receipt(), Self.end, Self.receipt(), Self.end).count == 2)
        #expect(connection.machine.readRequested() == false)
        // Reads resume once the path has caught up and nothing is held, not at the first answer.
        #expect(connection.answer(0, .noContent) == ["write 204"])
        #expect(connection.answer(1, .noContent) == ["write 204", "read"])
        #expect(connection.machine.readRequested() == true)
        // A request held for the other path pauses reads too.
        #expect(connection.receive(Self.receipt(), Self.end, Self.head(.get, "/healthz")) == ["ingest 2: /v1/receipts "])
        #expect(connection.machine.readRequested() == false)
        #expect(connection.answer(2, .noContent) == ["write 204", "router: GET /healthz", "read complete", "read"])
    }

    @Test func aRequestStillArrivingDoesNotKeepReadsPausedOnceTheWholeOnesAreAnswered() {
        var connection = Connection(maxPipelined: 2)
        // Two whole requests fill the window; the third's body is still on its way.
        #expect(connection.receive(Self.receipt(), Self.end, Self.receipt(), Self.end, Self.receipt(), Self.body("push_id=")).count == 2)
        #expect(connection.machine.readRequested() == false)
        #expect(connection.answer(0, .noContent) == ["write 204"])
        // Only a read can complete the third: it resumes once the whole ones are answered.
        #expect(connection.answer(1, .noContent) == ["write 204", "read"])
        #expect(connection.machine.readRequested() == true)
        #expect(connection.receive(Self.body("c"), Self.end) == ["ingest 2: /v1/receipts push_id=c"])
    }

    @Test func withTheFastPathOffEveryRequestGoesToTheRouter() {
        var connection = Connection(answersIngest: false)
        #expect(connection.receive(Self.receipt(), Self.body("a"), Self.end) == ["router: POST /v1/receipts", "router: body a", "router: end"])
        #expect(connection.receive(Self.head(.get, "/healthz"), Self.end) == ["router: GET /healthz", "router: end"])
        #expect(connection.routerEnded() == [])
        #expect(connection.machine.isWaitingForServer)
        #expect(connection.routerEnded() == [])
        #expect(!connection.machine.isWaitingForServer)
    }

    @Test func aBodyInSeveralPartsIsJoined() {
        var connection = Connection()
        #expect(connection.receive(Self.receipt(), Self.body("push"), Self.body("_id="), Self.body("p"), Self.end) == ["ingest 0: /v1/receipts push_id=p"])
        // Only the ingest routes' exact paths and method are taken.
        #expect(connection.answer(0, .noContent) == ["write 204"])
        #expect(connection.receive(Self.head(.get, "/v1/receipts"), Self.end) == ["router: GET /v1/receipts", "router: end"])
        #expect(connection.routerEnded() == [])
        #expect(connection.receive(Self.head(.post, "/v1/receipts/x"), Self.end) == ["router: POST /v1/receipts/x", "router: end"])
    }
}
