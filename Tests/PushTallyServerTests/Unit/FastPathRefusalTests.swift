import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

@testable import PushTallyServer

/// The connection rules for what a connection cannot go on after (a broken request, a head RFC 9112 refuses)
/// and for a half-close, driven like ``FastPathStateMachineTests`` with no socket.
@Suite struct FastPathRefusalTests {
    typealias Rules = FastPathStateMachineTests

    @Test func aHalfCloseWaitsForEveryAnswerBeforeTheRouterHearsOfIt() {
        var connection = Rules.Connection()
        #expect(connection.receive(Rules.receipt(), Rules.body("a"), Rules.end, Rules.receipt(), Rules.body("b"), Rules.end) == [
            "ingest 0: /v1/receipts a", "ingest 1: /v1/receipts b",
        ])
        // The client shut its side: the answers still due come first.
        #expect(connection.machine.inputClosed() == false)
        #expect(connection.answer(1, .noContent) == [])
        #expect(connection.machine.inputClosedMayPass() == false)
        #expect(connection.answer(0, .noContent) == ["write 204", "write 204"])
        #expect(connection.machine.inputClosedMayPass() == true)
        #expect(connection.machine.inputClosedMayPass() == false, "passed on once")
        // With nothing due, the router hears of it at once.
        var idle = Rules.Connection()
        #expect(idle.machine.inputClosed() == true)
    }

    @Test func aBrokenRequestIsRefusedInItsTurnThenTheConnectionCloses() {
        var connection = Rules.Connection()
        #expect(connection.receive(Rules.receipt(), Rules.body("a"), Rules.end) == ["ingest 0: /v1/receipts a"])
        // The parser fails on the next request's body: that request's slot gets the refusal, after the first.
        #expect(connection.receive(Rules.receipt(), Rules.body("b")) == [])
        #expect(connection.machine.refuseAndClose(routerMayAnswer: true) == .answer(slot: 1))
        #expect(connection.answer(1, .badRequest) == [])
        #expect(connection.answer(0, .noContent) == ["write 204", "write 400 (Connection: close)", "close"])
        // Between requests, the refusal takes a slot of its own.
        var idle = Rules.Connection()
        #expect(idle.machine.refuseAndClose(routerMayAnswer: true) == .answer(slot: 0))
    }

    @Test func aBrokenRequestWaitsForTheRouterOrIsTheRoutersWhenItReadsTheBody() {
        var connection = Rules.Connection()
        #expect(connection.receive(Rules.head(.get, "/healthz"), Rules.end) == ["router: GET /healthz", "router: end"])
        #expect(connection.machine.refuseAndClose(routerMayAnswer: true) == .afterRouter)
        #expect(connection.machine.refusalAfterRouter() == nil, "the router's response comes first")
        #expect(connection.machine.routerResponseIsLast == false, "the refusal follows it")
        _ = connection.routerEnded()
        #expect(connection.machine.refusalAfterRouter() == 0)
        // A body the router is reading fails in its route, which answers; that answer is the last.
        var passing = Rules.Connection()
        #expect(passing.receive(Rules.head(.put, "/v1/pushes/p"), Rules.body("{")) == ["router: PUT /v1/pushes/p", "router: body {"])
        #expect(passing.machine.refuseAndClose(routerMayAnswer: true) == .passToRouter)
        #expect(passing.machine.routerResponseIsLast)
    }

    @Test func bytesAfterARequestThatClosesAreNeverAnswered() {
        // The parser fails on what follows `Connection: close`: the request's answer is still the last, and says so.
        var connection = Rules.Connection()
        #expect(connection.receive(Rules.receipt([.connection: "close"]), Rules.body("a"), Rules.end) == ["ingest 0: /v1/receipts a"])
        #expect(connection.machine.refuseAndClose(routerMayAnswer: true) == .ignore)
        #expect(connection.answer(0, .noContent) == ["write 204 (Connection: close)", "close"])
        // The same after the router's answer to such a request.
        var routed = Rules.Connection()
        #expect(routed.receive(Rules.head(.get, "/healthz", [.connection: "close"]), Rules.end) == ["router: GET /healthz", "router: end"])
        #expect(routed.machine.refuseAndClose(routerMayAnswer: true) == .ignore)
        #expect(routed.machine.routerResponseIsLast)
        // A body that breaks in such a request is still that request's refusal.
        var broken = Rules.Connection()
        #expect(broken.receive(Rules.receipt([.connection: "close"]), Rules.body("a")) == [])
        #expect(broken.machine.refuseAndClose(routerMayAnswer: true) == .answer(slot: 0))
    }

    @Test func headsRFC9112RefusesAreAnsweredWithoutReachingEitherPath() {
        for (headers, status, code) in [
            ([("Host", "a"), ("Host", "b")], 400, "malformed_http"), ([], 400, "malformed_http"),
            ([("Host", "a"), ("Transfer-Encoding", "gzip, chunked")], 501, "unsupported_transfer_encoding"),
            ([("Host", "a"), ("Transfer-Encoding", "chunked, chunked")], 400, "malformed_http"),
            ([("Host", "x y")], 400, "malformed_http"), ([("Host", "x:65536")], 400, "malformed_http"),
        ] as [([(String, String)], Int, String)] {
            var connection = Rules.Connection()
            let head = HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .POST, uri: "/v1/receipts", headers: HTTPHeaders(headers)))
            #expect(connection.receive(head, Rules.body("push_id=a"), Rules.end) == ["refuse 0 \(code)", "write \(status) (Connection: close)", "close"], "\(headers)")
        }
        // HTTP/1.0 needs no Host, and without keep-alive closes after its answer.
        var old = Rules.Connection()
        let head = HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_0, method: .POST, uri: "/v1/receipts", headers: [:]))
        #expect(old.receive(head, Rules.body("a"), Rules.end) == ["ingest 0: /v1/receipts a"])
        #expect(old.answer(0, .noContent) == ["write 204 (Connection: close)", "close"])
        // But not with Transfer-Encoding, which HTTP/1.0 does not have.
        var framed = Rules.Connection()
        let chunked = HTTPRequestHead(version: .http1_0, method: .POST, uri: "/v1/receipts", headers: ["Transfer-Encoding": "chunked"])
        #expect(framed.receive(.head(chunked), Rules.body("a"), Rules.end) == ["refuse 0 malformed_http", "write 400 (Connection: close)", "close"])
        // Empty list elements are no coding: `chunked,` is chunked.
        var empty = Rules.Connection()
        let emptyElement = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/v1/receipts", headers: ["Host": "a", "Transfer-Encoding": "chunked, "])
        #expect(empty.receive(.head(emptyElement), Rules.body("a"), Rules.end) == ["ingest 0: /v1/receipts a"])
    }
}
