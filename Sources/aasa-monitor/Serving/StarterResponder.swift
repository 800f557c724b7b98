import HTTP
import Store

/// The first responder `serve` runs: /healthz and a home page listing the registered domains.
/// The Web module's routes replace it; until then it keeps the README's promise.
struct StarterResponder: HTTPResponder {
    let database: Database
    let health: DatabaseHealth

    init(database: Database) {
        self.database = database
        health = DatabaseHealth(database: database)
    }

    func handle(_ request: HTTPRequest) -> HTTPHandling {
        guard request.method == .get || request.method == .head else {
            return .respond(.text("Method not allowed\n", status: .methodNotAllowed))
        }
        switch request.path {
        case "/healthz":
            // A fresh answer costs nothing on the loop; otherwise a worker does the round trip.
            if let healthy = health.recent { return .respond(Self.healthResponse(healthy)) }
            return .offload { _ in Self.healthResponse(health.probe()) }
        case "/":
            return .offload { _ in homePage() }
        default:
            return .respond(.text("Not found\n", status: .notFound))
        }
    }

    static func healthResponse(_ healthy: Bool) -> HTTPResponse {
        healthy
            ? .json(#"{"status":"ok","database":"ok"}"#)
            : .json(#"{"status":"unavailable","database":"unreachable"}"#, status: .serviceUnavailable)
    }

    private func homePage() -> HTTPResponse {
        let domains: [DomainListItem]
        do {
            domains = try database.listDomains()
        } catch {
            return .html(page(body: "<p>The database is unavailable right now; this page will work again when it is back.</p>"),
                         status: .serviceUnavailable)
        }
        let list = domains.isEmpty
            ? "<p>No domains yet.</p>"
            : "<ul>" + domains.map { "<li>\(escape($0.displayName)) <small>\(escape($0.lastVerdict ?? "never checked"))</small></li>" }.joined() + "</ul>"
        return .html(page(body: "<h2>Domains</h2>\n\(list)"))
    }

    private func page(body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>aasa-monitor</title></head>
        <body><h1>aasa-monitor</h1>
        \(body)
        </body></html>
        """
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
