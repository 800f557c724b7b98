import AssetLinks
import Foundation
import HTTP

/// A fake of Google's Digital Asset Links API (`statements:list`, `assetlinks:check`), a real HTTP server
/// of the test suite behind the fleet's nginx at `https://dal.fleet.test/v1`. By default it answers like
/// Google right after a fetch: it reads the host's current assetlinks.json from the fleet's document
/// root and returns Google's flattened statements (one per relation and fingerprint, sites with a
/// trailing dot), `maxAge`, `debugString` and `errorCode[]`. Per host it can instead report a failed
/// fetch, or keep serving an older copy (lagging the origin).
public final class FakeDigitalAssetLinksAPI: @unchecked Sendable {
    public enum Answer: Sendable {
        /// Google read the origin's current file; these error codes besides (ERROR_CODE_MALFORMED_CONTENT
        /// is added by itself when a statement is dropped).
        case mirror([String])
        /// Google could not use the file: no statements, these codes.
        case fetchFailed([String])
        /// Google still serves this older file: it lags the origin.
        case frozen([UInt8])
    }

    /// `maxAge` in every answer, as Google writes it.
    public let maxAge = "600s"
    private let documentRoot: URL
    private let server: HTTPServer
    private let lock = NSLock()
    private var answers: [String: Answer] = [:]
    /// The answer for a host given none of its own (`setDefault`); nil: read the host's file (`.mirror([])`).
    private var defaultAnswer: Answer?
    private var log: [String] = []

    public var port: Int { server.port }

    /// Every request target received, in order (API keys included, so a test can see one was sent).
    public var requests: [String] {
        lock.lock()
        defer { lock.unlock() }
        return log
    }

    init(documentRoot: URL, answers: [String: Answer]) throws {
        self.documentRoot = documentRoot
        self.answers = answers
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.workerCount = 2
        configuration.accessLog = .disabled
        let box = Box()
        server = HTTPServer(configuration: configuration) { request in
            .offload { request in box.api?.respond(request) ?? HTTPResponse(status: .serviceUnavailable) }
        }
        box.api = self
        try server.start()
    }

    /// Changes what the API says about `host` from now on.
    public func set(_ answer: Answer, for host: String) {
        lock.lock()
        answers[host] = answer
        lock.unlock()
    }

    /// Changes what the API says about every host that was given no answer of its own: a benchmark of a
    /// million names sets one answer instead of a million entries.
    public func setDefault(_ answer: Answer) {
        lock.lock()
        defaultAnswer = answer
        lock.unlock()
    }

    func stop() { server.shutdown() }

    private final class Box: @unchecked Sendable { weak var api: FakeDigitalAssetLinksAPI? }

    // MARK: - Answers

    private func respond(_ request: HTTPRequest) -> HTTPResponse {
        lock.lock()
        log.append(request.target)
        lock.unlock()
        let query = Self.parameters(request.query ?? "")
        guard let site = query["source.web.site"], let host = Self.host(ofSite: site) else {
            return Self.json(["error": ["code": 400, "message": "Invalid source asset: a web site is required.", "status": "INVALID_ARGUMENT"]],
                             status: .badRequest)
        }
        let (statements, codes) = view(of: host)
        var body: [String: Any] = ["maxAge": maxAge, "debugString": Self.debugString(codes, statements: statements, host: host)]
        if !codes.isEmpty { body["errorCode"] = codes }
        switch request.path {
        case "/v1/statements:list":
            let relation = query["relation"] ?? ""
            body["statements"] = statements.filter { relation.isEmpty || $0["relation"] as? String == relation }
        case "/v1/assetlinks:check":
            guard let relation = query["relation"], let package = query["target.androidApp.packageName"],
                  let fingerprint = query["target.androidApp.certificate.sha256Fingerprint"] else {
                return Self.json(["error": ["code": 400, "message": "Invalid target asset.", "status": "INVALID_ARGUMENT"]], status: .badRequest)
            }
            let linked = statements.contains { statement in
                guard statement["relation"] as? String == relation,
                      let app = (statement["target"] as? [String: Any])?["androidApp"] as? [String: Any] else { return false }
                return app["packageName"] as? String == package
                    && (app["certificate"] as? [String: Any])?["sha256Fingerprint"] as? String == fingerprint
            }
            // proto3 JSON leaves a false Boolean out, as Google's answers do.
            if linked { body["linked"] = true }
        default:
            return Self.json(["error": ["code": 404, "message": "Method not found.", "status": "NOT_FOUND"]], status: .notFound)
        }
        return Self.json(body)
    }

    /// The statements Google would list for `host` and its error codes.
    private func view(of host: String) -> ([[String: Any]], [String]) {
        lock.lock()
        let answer = answers[host] ?? defaultAnswer ?? .mirror([])
        lock.unlock()
        let bytes: [UInt8]
        var codes: [String]
        switch answer {
        case .fetchFailed(let failure):
            return ([], failure)
        case .frozen(let old):
            bytes = old
            codes = []
        case .mirror(let extra):
            let file = documentRoot.appendingPathComponent("\(host)/.well-known/assetlinks.json")
            guard let data = try? Data(contentsOf: file) else { return ([], ["ERROR_CODE_FETCH_ERROR"]) }
            bytes = Array(data)
            codes = extra
        }
        let reading = AssetLinksReader.read(bytes)
        // Google follows includes; the fleet's are files of its own document root.
        let resolution = IncludeResolver.resolve(reading) { [documentRoot] url in
            guard let parsed = URL(string: url), let host = parsed.host else { return nil }
            return (try? Data(contentsOf: documentRoot.appendingPathComponent("\(host)\(parsed.path)"))).map(Array.init)
        }
        if resolution.googleReportsError, !codes.contains("ERROR_CODE_MALFORMED_CONTENT") { codes.append("ERROR_CODE_MALFORMED_CONTENT") }
        let raw = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [Any] ?? []
        // The resolution lists the file's own statements first; relation extensions are read from those
        // (the fleet's includes carry none).
        let ownCount = reading.file?.statements.count ?? 0
        var statements: [[String: Any]] = []
        for (offset, statement) in resolution.statements.enumerated() {
            let extensions = (offset < ownCount && raw.indices.contains(statement.index)
                ? raw[statement.index] as? [String: Any] : nil)?["relation_extensions"] as? [String: Any]
            for relation in statement.relations {
                var targets: [[String: Any]] = []
                switch statement.target {
                case .androidApp(let package, let fingerprints):
                    targets = fingerprints.map { ["androidApp": ["packageName": package, "certificate": ["sha256Fingerprint": $0]]] }
                case .web(let site):
                    targets = [["web": ["site": site + "."]]]
                }
                for target in targets {
                    var flattened: [String: Any] = ["source": ["web": ["site": "https://\(host)."]], "relation": relation, "target": target]
                    if let ext = extensions?[relation] { flattened["relationExtensions"] = ext }
                    statements.append(flattened)
                }
            }
        }
        return (statements, codes)
    }

    /// Google's shape: the errors, then one block per statement considered, whose lines (a site, a
    /// package and a whole SHA-256 fingerprint) are as long as a page has to fit.
    private static func debugString(_ codes: [String], statements: [[String: Any]], host: String) -> String {
        var text = "********************* ERRORS *********************\n" + (codes.isEmpty ? "None!" : codes.joined(separator: "\n"))
        guard !statements.isEmpty else { return text }
        text += "\n********************* INFO MESSAGES *********************\n* Info: The following statements were considered when processing the request:\n"
        let site = "Web asset with site https://\(host). (which is equivalent to 'https://\(host)')"
        for statement in statements {
            let target = statement["target"] as? [String: Any]
            let described: String
            if let app = target?["androidApp"] as? [String: Any] {
                let fingerprint = (app["certificate"] as? [String: Any])?["sha256Fingerprint"] as? String ?? ""
                described = "Android app asset with package \(app["packageName"] as? String ?? ""), certificate fingerprint \(fingerprint)"
            } else {
                described = "Web asset with site \((target?["web"] as? [String: Any])?["site"] as? String ?? "")"
            }
            text += "\n---\nSource: \(site)\nRelation: \(statement["relation"] as? String ?? "")\nTarget: \(described)\n"
                + "Where this statement came from:\n  Origin of the statement: \(site)\n  Include directives followed (in order):\n    <None>\n"
                + "Matches source query: Yes\nMatches relation query: Yes\nMatches target query: Yes\n\n--- End of statement.\n"
        }
        return text
    }

    private static func host(ofSite site: String) -> String? {
        guard site.lowercased().hasPrefix("https://") else { return nil }
        var host = String(site.dropFirst("https://".count)).lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        return host.isEmpty || host.contains("/") ? nil : host
    }

    private static func parameters(_ query: String) -> [String: String] {
        var out: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            out[name] = value
        }
        return out
    }

    private static func json(_ object: [String: Any], status: HTTPStatus = .ok) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=UTF-8")
        return HTTPResponse(status: status, headers: headers, body: Array(data))
    }
}
