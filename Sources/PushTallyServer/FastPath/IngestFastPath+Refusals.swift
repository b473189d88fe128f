import HTTPTypes
import Metrics
import NIOCore
import NIOHTTP1

/// Bytes SwiftNIO's parser refused and heads RFC 9112 refuses: answered as JSON errors in their turn, then
/// the connection closes (``FastPathStateMachine/refuseAndClose(routerMayAnswer:)``).
extension IngestFastPath {
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if parserFailed, error is ByteToMessageDecoderError { return }
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        // The client's mistake (or its disconnect mid-request): a JSON 4xx in its turn, then the close, on
        // both paths. Hummingbird's own handler would answer an empty 400 between requests, and a 500 from a
        // route whose body failed.
        parserFailed = true
        let refusal = ParserFailure.refusal(parserError, received: bytesBeingDecoded)
        switch machine.refuseAndClose(routerMayAnswer: true) {
        case .ignore: break
        case .passToRouter: context.fireErrorCaught(error)
        case .afterRouter: pendingRefusal = refusal
        case .answer(let slot): answer(refusal, slot: slot, context)
        }
    }

    /// A refusal of the connection's last request, in its turn (not counted as an ingest answer: it may not be
    /// one). Logged as any client mistake is.
    func answer(_ refusal: APIError, slot: Int, _ context: ChannelHandlerContext) {
        shared.logger.info(
            "rejected",
            metadata: [
                "status": "\(refusal.status.code)", "error": "\(refusal.code)", "field": "\(refusal.field ?? "-")",
                "peer": "\(peer.map { "\($0)" } ?? "-")",
            ])
        Counter(
            label: "pushtally_http_requests_total",
            dimensions: [("route", "unmatched"), ("method", "unparsed"), ("status", String(refusal.status.code))]
        ).increment()
        machine.answerReady(.init(head: HTTPResponse(status: refusal.status, headerFields: refusal.responseHeaders), body: refusal.body), slot: slot)
        writeReadyAnswers(context)
    }
}
