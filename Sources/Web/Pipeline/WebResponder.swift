import HTTP

/// Plugs the web app into the project's HTTP server. Every route may touch the database, so all of
/// them run on the server's worker pool; static files under /static/ never get here (the server
/// answers them from its cache on the event loop).
public struct WebResponder: HTTPResponder {
    public let app: WebApp

    public init(app: WebApp) { self.app = app }

    public func handle(_ request: HTTPRequest) -> HTTPHandling {
        let app = self.app
        return .offload { request in
            WebResponder.httpResponse(app.respond(WebResponder.webRequest(request, trustProxy: app.configuration.trustForwardedProto)))
        }
    }

    static func webRequest(_ r: HTTPRequest, trustProxy: Bool) -> WebRequest {
        WebRequest(method: r.method.rawValue, path: r.path, query: r.query ?? "",
                   headers: r.headers.map { (name: $0.name, value: $0.value) }, body: r.body,
                   isSecure: trustProxy && r.headers["x-forwarded-proto"] == "https",
                   remoteAddress: r.remoteAddress)
    }

    static func httpResponse(_ w: WebResponse) -> HTTPResponse {
        var response = HTTPResponse(status: HTTPStatus(code: w.status), headers: HTTPHeaders(w.headers.map { (name: $0.name, value: $0.value) }),
                                    bodyParts: w.bodyParts)
        response.stream = w.stream
        return response
    }
}
