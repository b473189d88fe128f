import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing

@testable import PushTallyServer

/// `Expect: 100-continue` and idleness in the fast path's connection rules, driven as ``IngestFastPath`` drives
/// them (see ``FastPathStateMachineTests``).
@Suite struct FastPathExpectTests {
    typealias Rules = FastPathStateMachineTests

    static func expecting(_ method: HTTPRequest.Method = .post, _ path: String = "/v1/receipts") -> HTTPServerRequestPart {
        Rules.head(method, path, [.expect: "100-continue", .contentLength: "1"])
    }

    @Test func anIngestHeadIsJudgedBeforeItsBodyIsReadThenInvited() {
        var connection = Rules.Connection()
        #expect(connection.receive(Self.expecting()) == ["check /v1/receipts"])
        // No body is read while the head is judged; what the client sent anyway waits.
        #expect(connection.machine.readRequested() == false)
        #expect(connection.receive(Rules.body("a"), Rules.end) == [])
        #expect(connection.admit() == ["100", "ingest 0: /v1/receipts a", "read complete", "read"])
        #expect(connection.answer(0, .noContent) == ["write 204"])
    }

    @Test func aRefusedHeadIsAnsweredAtOnceAndTheConnectionClosesUnread() {
        var connection = Rules.Connection()
        #expect(connection.receive(Self.expecting()) == ["check /v1/receipts"])
        #expect(connection.refuse(.unauthorized) == ["write 401 (Connection: close)", "close"])
        // A body sent anyway, and requests after it, are thrown away.
        #expect(connection.receive(Rules.body("a"), Rules.end, Rules.receipt(), Rules.end) == [])
    }

    @Test func theInterimAnswerWaitsForTheAnswersAheadOfIt() {
        var connection = Rules.Connection()
        #expect(connection.receive(Rules.receipt(), Rules.end) == ["ingest 0: /v1/receipts "])
        #expect(connection.receive(Self.expecting()) == [])
        #expect(connection.answer(0, .noContent) == ["write 204", "check /v1/receipts", "read complete"])
        #expect(connection.admit() == ["100"])
        #expect(connection.receive(Rules.body("b"), Rules.end) == ["ingest 1: /v1/receipts b"])
    }

    @Test func withTheFastPathOffTheHeadIsJudgedThenPassedToTheRouter() {
        var connection = Rules.Connection(answersIngest: false)
        #expect(connection.receive(Self.expecting()) == ["check /v1/receipts"])
        #expect(connection.admit() == ["100", "router: POST /v1/receipts"])
        #expect(connection.receive(Rules.body("a"), Rules.end) == ["router: body a", "router: end"])
        #expect(connection.routerEnded() == [])
        // Any other route gets its 100 as its head goes to the router, once nothing is ahead of it.
        #expect(connection.receive(Self.expecting(.put, "/v1/pushes/p1")) == ["100", "router: PUT /v1/pushes/p1"])
        #expect(connection.receive(Rules.end, Self.expecting(.put, "/v1/pushes/p2")) == ["router: end"])
        #expect(connection.routerEnded() == ["100", "router: PUT /v1/pushes/p2", "read complete"])
    }

    @Test func aQuiesceWhileAHeadIsJudgedClosesAndNothingIsInvited() {
        var connection = Rules.Connection()
        #expect(connection.receive(Self.expecting()) == ["check /v1/receipts"])
        #expect(connection.machine.quiesce() == .close)
        #expect(connection.admit() == [])
        #expect(connection.refuse(.unauthorized) == [])
    }

    @Test func idleIsBetweenRequestsOrBeforeTheFirst() {
        var connection = Rules.Connection()
        let opened = connection.now
        #expect(connection.machine.idleSince == opened)
        connection.now = opened + .seconds(1)
        _ = connection.receive(Rules.receipt())
        #expect(connection.machine.idleSince == nil)
        _ = connection.receive(Rules.end)
        // Answering is not idle either.
        #expect(connection.machine.idleSince == nil)
        connection.now = opened + .seconds(2)
        _ = connection.answer(0, .noContent)
        #expect(connection.machine.idleSince == opened + .seconds(2))
        // Nor is the router's work.
        _ = connection.receive(Rules.head(.get, "/healthz"), Rules.end)
        #expect(connection.machine.idleSince == nil)
        connection.now = opened + .seconds(3)
        _ = connection.routerEnded()
        #expect(connection.machine.idleSince == opened + .seconds(3))
        // Bytes of a head the decoder has not made whole yet are a request begun.
        connection.machine.bytesArrived()
        #expect(connection.machine.idleSince == nil)
    }
}

extension FastPathStateMachineTests.Connection {
    /// The judged head may send its body: the handler writes `100 Continue` and lets what waited go.
    mutating func admit() -> [String] {
        guard let action = machine.continueAdmitted() else { return [] }
        return ["100"] + perform(action) + releaseHeld()
    }

    /// The judged head is refused with `status`.
    mutating func refuse(_ status: HTTPResponse.Status) -> [String] {
        guard let slot = machine.continueRefused() else { return [] }
        return answer(slot, status)
    }
}
