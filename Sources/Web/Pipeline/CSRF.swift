import TextEncoding

/// No state change without proof the form came from our own page: every form POST carries a token
/// derived from a secret only this browser holds, the session's or, before login, the visitor
/// cookie's (set here for the login and setup pages). Also decodes the form with the route's limits.
/// The API is exempt: it authenticates with a bearer header, which another site cannot make a browser send.
struct CSRF: WebMiddleware {
    static let visitorCookieLifetime = 86_400

    func handle(_ request: WebRequest, context: RequestState, next: WebMiddlewareNext) throws -> WebResponse {
        var state = context
        var newVisitor: String?
        if context.route.access == .anonymous {
            if let v = request.cookies[SessionCookie.visitorName], v.count == 64 {
                state.csrfSecret = v
            } else {
                let v = Hex.encode(Crypto.randomBytes(32))
                newVisitor = v
                state.csrfSecret = v
            }
        }
        if !context.isAPI && request.method == "POST" {
            do {
                state.form = try FormData.decode(request.body, contentType: request.header("content-type"), limits: context.route.formLimits)
            } catch FormData.DecodeError.tooLarge(let limit) {
                // Too large is not malformed: 413, as the API and the HTTP layer answer a body past their limits.
                throw WebError.payloadTooLarge("The form is larger than this page accepts (\(FormData.DecodeError.tooLarge(limit: limit).sizeText)). Send a smaller file.")
            } catch {
                throw WebError.badRequest("The form could not be read: \(error). Reload the page and send it again.")
            }
            guard let secret = state.csrfSecret, CSRFToken.isValid(state.form["csrf"], forSession: secret) else {
                return ErrorPages.page(.forbidden("The form expired or came from another site. Go back, reload the page and try again."),
                                       request: request, viewer: context.viewer, requestID: context.requestID, status: 403)
            }
        }
        var response = try next(request, state)
        if let newVisitor {
            response.headers.append(("Set-Cookie", SessionCookie.set(name: SessionCookie.visitorName, value: newVisitor,
                                                                    maxAge: CSRF.visitorCookieLifetime, secure: context.isSecure)))
        }
        return response
    }
}
