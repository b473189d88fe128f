import Logging
import NIOCore

extension IngestFastPath {
    /// What every connection's handler shares.
    struct Shared: Sendable {
        let pipeline: IngestPipeline
        /// `false` passes the ingest routes on to the router too (`serve --no-fast-path`): only the
        /// connection's clock is kept here then.
        let answersIngest: Bool
        /// Each connection's idle timeout, minimum body rate and whole-request limit.
        let limits: ConnectionClock.Limits
        let logger: Logger
        /// Pipelined ingest requests answered concurrently before reads pause.
        var maxPipelined = 64
        /// Where every connection registers, so the listener can close the one idle longest when at its limit.
        var registry: ConnectionRegistry? = nil
        /// Where the writer thread leaves answers for each event loop.
        var mailboxes = AnswerMailboxes()
    }
}
