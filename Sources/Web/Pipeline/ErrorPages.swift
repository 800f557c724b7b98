import Foundation
import Store

/// Turns what a handler throws into an answer: a `WebError` into a page (or the API's JSON error)
/// with its status; an outage into 503; anything else, our own failure, into a 500 that shows the
/// person a request id to quote while the cause goes to the log, never to the page.
struct ErrorPages: WebMiddleware {
    func handle(_ request: WebRequest, context: RequestState, next: WebMiddlewareNext) throws -> WebResponse {
        do {
            return try next(request, context)
        } catch {
            return ErrorPages.page(for: error, request: request, viewer: context.viewer, requestID: context.requestID)
        }
    }

    static func page(for error: any Error, request: WebRequest, viewer: Viewer?, requestID: String) -> WebResponse {
        switch error {
        case let error as WebError:
            return page(error, request: request, viewer: viewer, requestID: requestID)
        case let error as DatabaseError where error.isOutage:
            log("web: request \(requestID) \(request.method) \(request.path): \(error)")
            return page(.unavailable("The database is unavailable right now; this page works again when it is back."),
                        request: request, viewer: viewer, requestID: requestID)
        default:
            log("web: request \(requestID) \(request.method) \(request.path) failed: \(error)")
            return page(.unavailable("Something went wrong on our side. Try again; if it persists, quote the request id."),
                        request: request, viewer: viewer, requestID: requestID, status: 500)
        }
    }

    static func page(_ error: WebError, request: WebRequest, viewer: Viewer?, requestID: String, status: Int? = nil) -> WebResponse {
        let code = status ?? error.status
        if request.path.hasPrefix("/api/") {
            return APIResponses.error(status: code, message: error.message, field: error.field)
        }
        // Only server-side failures carry an id: those are the ones worth quoting to an operator.
        let rid = code >= 500 ? requestID : nil
        return .html(AccountPages.problem(status: code, title: error.title, message: error.message, viewer: viewer, requestID: rid),
                     status: code)
    }

    private static func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension DatabaseError {
    /// The database is unreachable or overloaded (as opposed to a statement our code got wrong).
    var isOutage: Bool {
        switch self {
        case .connectionFailed, .connectionLost, .poolTimeout: true
        case .server, .decoding: false
        }
    }
}
