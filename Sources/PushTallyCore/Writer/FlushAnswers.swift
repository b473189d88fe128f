import Logging

/// Hands a flush's outputs to the submissions of its commit, one output per submission in order.
///
/// A flush that returns a different number of outputs than it was given inputs broke its contract: which
/// output belongs to which submission is unknown, so none is acknowledged. Every submission of that commit is
/// failed with ``WriterError/outputCountMismatch(inputs:outputs:)`` (a 500: the client retries, and a retry of
/// what did commit is recognised) and the mismatch is logged, so no request waits forever for an answer.
package enum FlushAnswers {
    /// The log of a writer whose flush broke its contract.
    package static let logger = Logger(label: "pushtally.writer")

    /// Calls `answer` once for each of `count` submissions: with its output, or with the mismatch error.
    ///
    /// - Parameter answer: called with a submission's index and its outcome.
    static func deliver<Output>(
        _ outputs: [Output], toCount count: Int, logger: Logger,
        _ answer: (Int, Result<Output, any Error>) -> Void
    ) {
        guard outputs.count == count else {
            let error = WriterError.outputCountMismatch(inputs: count, outputs: outputs.count)
            logger.error(
                "a commit returned a different number of outputs than it was given inputs; its requests were answered 500",
                metadata: ["inputs": "\(count)", "outputs": "\(outputs.count)"])
            for index in 0..<count { answer(index, .failure(error)) }
            return
        }
        for index in 0..<count { answer(index, .success(outputs[index])) }
    }
}
