import Foundation
import TextEncoding

/// The request path: routing, then the steps in order, then the route's handler.
///
///     Pipeline(router, [SetupGate, Authentication, CSRF, CacheInvalidation, ErrorPages], endpoint)
///
/// Routing comes first because the steps depend on who may reach the route (`Access`). A failure the
/// steps themselves raise (an outage while looking up a session, a read-only user on an admin route)
/// becomes a page here; a handler's becomes one in `ErrorPages`, which knows who is signed in.
struct Pipeline: Sendable {
    let router: Router<Route>
    let steps: [any WebMiddleware]
    let endpoint: @Sendable (WebRequest, RequestState) throws -> WebResponse
    let isSecure: @Sendable (WebRequest) -> Bool

    func respond(_ request: WebRequest) -> WebResponse {
        let requestID = Hex.encode(Crypto.randomBytes(6))
        do {
            switch router.match(method: request.method, path: request.path) {
            case .found(let route, let parameters):
                let state = RequestState(route: route, parameters: parameters, requestID: requestID, now: Date(),
                                         isSecure: isSecure(request))
                return try run(0, request, state)
            case .methodNotAllowed(let allowed):
                return ErrorPages.page(.badRequest("This address does not accept \(request.method)."), request: request,
                                       viewer: nil, requestID: requestID, status: 405)
                    .with(header: "Allow", allowed.joined(separator: ", "))
            case .notFound:
                throw WebError.notFound("There is no page at this address.")
            }
        } catch {
            return ErrorPages.page(for: error, request: request, viewer: nil, requestID: requestID)
        }
    }

    private func run(_ index: Int, _ request: WebRequest, _ state: RequestState) throws -> WebResponse {
        guard index < steps.count else { return try endpoint(request, state) }
        return try steps[index].handle(request, context: state) { request, state in try run(index + 1, request, state) }
    }
}
