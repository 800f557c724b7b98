/// Until the first account exists, every page but `/setup` leads there. Open routes (health, badge,
/// metrics, the OpenAPI document) and the token-authenticated API answer as usual.
struct SetupGate: WebMiddleware {
    let setup: SetupState

    func handle(_ request: WebRequest, context: RequestState, next: WebMiddlewareNext) throws -> WebResponse {
        switch context.route.access {
        case .open, .api, .apiAdmin:
            return try next(request, context)
        case .anonymous, .signedIn, .admin:
            if request.path != "/setup", try !setup.isSetUp() { return .seeOther("/setup") }
            return try next(request, context)
        }
    }
}
