import Hummingbird
import NIOCore
import PushTallyCore

/// The router's adapter over ``IngestPipeline``: ``APIRoute/receipts`` and ``APIRoute/actions`` as ordinary
/// routes (`serve --no-fast-path`, and the router tests). It moves the body in and the answer out; what the
/// answer is, and how it is counted, is the pipeline's, the same as on ``IngestFastPath``.
///
/// The pipeline answers every error and counts every answer itself, so these routes are registered before
/// the router's error and metrics middlewares, which would answer and count them a second time.
struct IngestController<Context: RequestContext & RemoteAddressRequestContext>: Sendable {
    let pipeline: IngestPipeline

    func register(on routes: RouteTable<Context>) {
        for route in APIRoute.ingestRoutes {
            guard let kind = route.eventKind else { continue }
            routes.on(route) { request, context in await self.ingest(request, route: route, kind: kind, context: context) }
        }
    }

    func ingest(_ request: Request, route: APIRoute, kind: EventKind, context: Context) async -> Response {
        let ingest = IngestPipeline.Request(
            route: route, kind: kind, headers: request.headers, target: request.uri.description, peer: context.remoteAddress,
            logger: context.logger)
        // An origin that is not listed is refused before its body is read.
        let answer = if let refusal = pipeline.refusalOfOrigin(ingest) { refusal } else { await process(request, ingest) }
        var counters = RequestCounters()
        counters.record(answer)
        guard let body = answer.body else { return Response(status: answer.status, headers: answer.headers) }
        return Response(status: answer.status, headers: answer.headers, body: .init(byteBuffer: body))
    }

    private func process(_ request: Request, _ ingest: IngestPipeline.Request) async -> IngestResponse {
        do {
            let body = try await pipeline.reader.collect(request)
            return await withCheckedContinuation { continuation in
                pipeline.process(ingest, body: body, sink: ContinuationSink(continuation: continuation))
            }
        } catch {
            return pipeline.refusal(error, ingest)
        }
    }
}

/// Resumes the router's request with the pipeline's answer.
private struct ContinuationSink: IngestSink {
    let continuation: CheckedContinuation<IngestResponse, Never>

    func deliver(_ response: IngestResponse) {
        continuation.resume(returning: response)
    }
}
