import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import PushTallyCore

/// Turns every error into a JSON error response, so no client ever sees an HTML or empty error body,
/// and bad input can never surface as a 500. Added before every route but the ingest ones (whose pipeline
/// answers its own errors), so it also wraps the router's 404.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            // A path no route matched is not logged: it may be anything, a mistyped token included.
            // (Hummingbird names the route of a request it could not route "NotFound".)
            let routed = context.endpointPath.map { $0 != "NotFound" } ?? false
            let path = routed ? APIRoute.loggedPath(of: request.uri.path) : nil
            throw Self.answer(error, method: request.method, path: path, logger: context.logger)
        }
    }

    /// The API error for anything a handler threw, logged when it is the client's (4xx): one line per
    /// rejected request, with the path but not its query (a `?key=` stays out of logs), never a header or a
    /// body. `path` is `nil` for a path no route matched, and a route's template where the path carries
    /// personal data (``APIRoute/loggedPath(of:)``).
    ///
    /// `pushtally_events_rejected_total` counts only what was refused on the routes that take events and
    /// sends, so a browser's favicon 404 or a report with a bad time zone does not look like lost data.
    static func answer(_ error: any Error, method: HTTPRequest.Method, path: String?, logger: Logger) -> APIError {
        let apiError = apiError(for: error, logger: logger)
        if (400..<500).contains(apiError.status.code) {
            if let path, APIRoute.matching(path: path[...])?.countsRejectedEvents == true {
                ServerMetrics.rejected(apiError.code)
            }
            logger.info(
                "rejected",
                metadata: [
                    "status": "\(apiError.status.code)", "error": "\(apiError.code)", "field": "\(apiError.field ?? "-")",
                    "method": "\(method)", "path": "\(path ?? "(no route)")",
                ])
        }
        return apiError
    }

    static func apiError(for error: any Error, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as FieldError:
            return APIError(error)
        case let error as TotalOutOfRange:
            // The stored figures are fine one by one; this report adds too many of them up.
            return APIError(.unprocessableContent, "total_out_of_range", error.description, field: error.field)
        case let error as HTTPParserError:
            // A route's body that broke mid-way (bad chunking, a client gone before its end): the client's.
            return APIError(error)
        case _ where isClientGone(error):
            // Reset or closed by the client before its body ended: nobody reads the answer, and it is no fault
            // of the collector's, so no 5xx in /metrics and no error in the log.
            return APIError(.badRequest, "client_gone", "the client closed the connection before the end of its request")
        case let error as HTTPError:
            return APIError(error.status, code(for: error.status), error.body ?? error.status.reasonPhrase, headers: error.headers)
        case WriterError.overloaded:
            return .unavailable("the collector is busy; retry shortly", retryAfter: 1)
        case WriterError.closed:
            return .unavailable("the collector is shutting down; retry shortly", retryAfter: 5)
        case WriterError.stalled:
            // The writer's watchdog logged why, once for the whole commit.
            return .unavailable("the database did not answer in time; retry shortly", retryAfter: 5)
        case WriterError.outputCountMismatch:
            // The writer logged the mismatch, once for the whole commit.
            return APIError(.internalServerError, "internal", "the commit's outcome could not be matched to this request; retry")
        case let error as StoreError:
            switch error {
            case .sentAtImmutable:
                return APIError(.conflict, "sent_at_immutable", error.description, field: "sent_at")
            case .pushNotRegistered:
                return APIError(.notFound, "push_not_registered", error.description, field: "campaign")
            case .alertNameTaken:
                return APIError(.conflict, "name_taken", error.description, field: "name")
            case .sendTotalOutOfRange(_, let field):
                return APIError(.badRequest, "total_out_of_range", error.description, field: field)
            case .databaseNewerThanCode, .misconfigured:
                return .unavailable(error.description, retryAfter: 60)
            case .unavailable(let reason):
                RepeatedErrorLog.storage.error("database unavailable", metadata: ["error": "\(error)"], logger: logger)
                return .unavailable("the database is unavailable (\(reason)); retry shortly", retryAfter: 5)
            }
        case let error as any StorageUnavailableError:
            RepeatedErrorLog.storage.error("storage unavailable", metadata: ["error": "\(error)"], logger: logger)
            return .unavailable("storage is unavailable (\(error.reason)); retry later", retryAfter: error.retryAfterSeconds)
        default:
            logger.error("unexpected error", metadata: ["error": "\(error)"])
            return APIError(.internalServerError, "internal", "internal error")
        }
    }

    /// Whether `error` says the client's side of the connection went away (reset, closed) mid-request.
    static func isClientGone(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError: [ECONNRESET, EPIPE, ECONNABORTED, ETIMEDOUT].contains(error.errnoCode)
        case let error as ChannelError:
            switch error {
            case .ioOnClosedChannel, .eof, .inputClosed, .outputClosed, .alreadyClosed: true
            default: false
            }
        default: false
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "not_found"
        case .contentTooLarge: "body_too_large"
        case .methodNotAllowed: "method_not_allowed"
        case .unsupportedMediaType: "unsupported_media_type"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        default: status.code < 500 ? "bad_request" : "server_error"
        }
    }
}
