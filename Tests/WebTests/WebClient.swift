import Foundation
@testable import Web

/// A browser-like client for handler tests: calls `WebApp.respond` directly, keeps cookies and the
/// CSRF token of the last page it saw, and follows nothing on its own.
final class WebClient {
    let app: WebApp
    var cookies: [String: String] = [:]
    var csrf = ""
    var remoteAddress = "127.0.0.1"

    init(app: WebApp) { self.app = app }

    @discardableResult
    func get(_ target: String, headers: [(name: String, value: String)] = []) -> WebResponse {
        send(WebRequest(method: "GET", target: target, headers: headers + cookieHeader(), remoteAddress: remoteAddress))
    }

    /// Posts a form; the current CSRF token is added unless `csrf` is given (nil: send none).
    @discardableResult
    func post(_ target: String, _ fields: [(String, String)] = [], csrf: String?? = .none) -> WebResponse {
        var all = fields.map { (name: $0.0, value: $0.1) }
        switch csrf {
        case .none: all.append(("csrf", self.csrf))
        case .some(.some(let token)): all.append(("csrf", token))
        case .some(.none): break
        }
        let body = Array(FormData(fields: all).encoded().utf8)
        return send(WebRequest(method: "POST", target: target,
                               headers: [("Content-Type", "application/x-www-form-urlencoded")] + cookieHeader(),
                               body: body, remoteAddress: remoteAddress))
    }

    func send(_ request: WebRequest) -> WebResponse {
        // A streamed body (the exports) is read to its end, as a browser would.
        var response = app.respond(request)
        do { response = try response.collected() } catch { response = WebResponse(status: 599, body: Array("stream failed: \(error)".utf8)) }
        for (name, value) in response.headers where name.lowercased() == "set-cookie" {
            let pair = value.split(separator: ";")[0]
            guard let eq = pair.firstIndex(of: "=") else { continue }
            let key = String(pair[..<eq]), v = String(pair[pair.index(after: eq)...])
            if value.contains("Max-Age=0") || v.isEmpty { cookies[key] = nil } else { cookies[key] = v }
        }
        let text = response.bodyText
        if let r = text.range(of: "name=\"csrf\" value=\"") {
            csrf = String(text[r.upperBound...].prefix { $0 != "\"" })
        }
        return response
    }

    func cookieHeader() -> [(name: String, value: String)] {
        cookies.isEmpty ? [] : [("Cookie", cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))]
    }

    /// Runs first-start setup, with the setup code `serve` would print, and stays logged in as that admin.
    func setUpAdmin(email: String = "admin@example.com", password: String = "correct horse battery") {
        get("/setup")
        post("/setup", [("setup_code", app.setupCode.value), ("email", email), ("password", password), ("confirm", password)])
    }

    func logIn(email: String, password: String) -> WebResponse {
        get("/login")
        return post("/login", [("email", email), ("password", password)])
    }
}

enum TestApp {
    /// Cheap argon2id parameters keep the tests quick; the algorithm is the same.
    static let configuration = WebConfiguration(passwordHasher: PasswordHasher(opsLimit: 1, memLimit: 8192),
                                                allowPrivateAddresses: true, resolveOnRegister: false)
}
