import Hummingbird
import Logging
import PushTallyCore
@testable import PushTallyServer
import Testing

/// What a client is answered when the writer ends a submission with an error of its own: busy, closing or
/// stalled are 503s to retry; a commit whose outputs did not match its inputs is a 500 (the request may or may
/// not be stored: a retry is recognised if it was).
@Suite struct WriterErrorAnswerTests {
    private static func answer(_ error: WriterError) -> APIError {
        JSONErrorMiddleware<BasicRequestContext>.apiError(for: error, logger: Logger(label: "test.writer-errors"))
    }

    @Test func writerErrorsAreAnsweredAsTheirKindSays() {
        for error in [WriterError.overloaded, .closed, .stalled] {
            let answer = Self.answer(error)
            #expect(answer.status == .serviceUnavailable, "\(error)")
            #expect(answer.headers[.retryAfter] != nil, "\(error)")
        }
        let mismatch = Self.answer(.outputCountMismatch(inputs: 3, outputs: 2))
        #expect(mismatch.status == .internalServerError)
        #expect(mismatch.code == "internal")
        #expect(mismatch.message.contains("retry"))
    }
}
