import HTTPTypes
import Hummingbird
import NIOCore

extension IngestPipeline {
    /// Decides from its head alone whether a request that asked `Expect: 100-continue` may send its body:
    /// `completion` gets, once and on any thread, the refusal the body would have met after arriving (403 for
    /// an origin `serve --cors-origin` does not list, 413 by `Content-Length`, 401 or 403 for the ingest key
    /// when one is required, 415 for its type or encoding, in the order ``process(_:body:sink:)`` checks
    /// them), or `nil` to invite the body.
    ///
    /// The rate limit is left to ``process(_:body:sink:)``: checking it here would spend a token twice.
    func refusalBeforeBody(_ request: Request, completion: @escaping @Sendable (IngestResponse?) -> Void) {
        if let refusal = refusalOfOrigin(request) { return completion(refusal) }
        guard reader.admitsDeclaredLength(request.headers) else { return completion(refusal(reader.tooLarge, request)) }
        if let refusal = refusalOfQuery(request) { return completion(refusal) }
        guard configuration.requireIngestKey, let role = request.route.role else { return completion(refusalOfBodyType(request)) }
        Task {
            do {
                try await authorizer.require(role, headers: request.headers, queryKey: APIRoute.queryKey(in: request.target))
            } catch {
                return completion(refusal(error, request))
            }
            completion(refusalOfBodyType(request))
        }
    }

    /// A query parameter the route does not take (``APIRoute/checkQuery(_:)``).
    private func refusalOfQuery(_ request: Request) -> IngestResponse? {
        guard let mark = request.target.firstIndex(of: "?") else { return nil }
        do {
            try request.route.checkQuery(request.target[request.target.index(after: mark)...])
            return nil
        } catch {
            return refusal(error, request)
        }
    }

    private func refusalOfBodyType(_ request: Request) -> IngestResponse? {
        do {
            _ = try reader.isGzip(contentEncoding: request.headers[.contentEncoding])
            _ = try IngestPlan.shape(contentType: request.headers[.contentType])
            return nil
        } catch {
            return refusal(error, request)
        }
    }
}
