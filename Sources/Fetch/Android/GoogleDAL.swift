import AssetLinks
import Outbound
import Vocabulary

extension Fetcher {
    /// Asks Google's Digital Asset Links API about `host` (assetlinks-spec.md §6): `statements:list` for the
    /// site with relation extensions, and `assetlinks:check` for `handle_all_urls` per expected package and
    /// fingerprint. The calls are transfers of this fetcher like any other (outbound policy, pinning, one
    /// checked curl handle). Nil when no API is configured.
    func askGoogle(about host: HostName, expectations: [AndroidAppExpectation]) async -> GoogleAnswer? {
        guard let settings = configuration.googleDAL else { return nil }
        let site = "https://\(host.ascii)"
        let endpoint = GoogleDALEndpoint(settings)
        async let listed = call(endpoint.url("statements:list", [
            ("source.web.site", site), ("returnRelationExtensions", "true"),
        ]))
        var checks: [GoogleLinkCheck] = []
        var failure: String?
        for app in expectations {
            for fingerprint in app.fingerprints {
                let answer = await call(endpoint.url("assetlinks:check", [
                    ("source.web.site", site), ("relation", Relation.handleAllURLs),
                    ("target.androidApp.packageName", app.packageName),
                    ("target.androidApp.certificate.sha256Fingerprint", fingerprint),
                    ("returnRelationExtensions", "true"),
                ]))
                switch answer.flatMap({ GoogleResponseParser.check($0, relation: Relation.handleAllURLs, packageName: app.packageName,
                                                                   fingerprint: fingerprint) }) {
                case .success(let check): checks.append(check)
                case .failure(let error): failure = failure ?? "assetlinks:check for \(app.packageName): \(error.message)"
                }
            }
        }
        switch await listed {
        case .failure(let error):
            return .unavailable(reason: "statements:list: \(error.message)")
        case .success(let bytes):
            switch GoogleResponseParser.statementList(bytes) {
            case .failure(let error): return .unavailable(reason: "statements:list: \(error.message)")
            case .success(let list):
                if let failure { return .unavailable(reason: failure) }
                return .answered(list: list, checks: checks)
            }
        }
    }

    /// One GET of the API: the body of a 200 answer, else why not (a 4xx body's error message included).
    private func call(_ url: String) async -> Result<[UInt8], GoogleResponseError> {
        let parsed: OutboundURL
        do {
            parsed = try OutboundURL(url)
        } catch {
            return .failure(GoogleResponseError(message: "the API base is not a usable URL (\(error.reason))"))
        }
        switch await pin(parsed.host, port: parsed.port) {
        case .failure(let failure, _):
            return .failure(GoogleResponseError(message: failure.message))
        case .success(let target):
            // `.cdn`: the platform's own copy of the file, the role Apple's CDN plays for Apple (design.md).
            let facts = await transfer(.cdn, url: parsed.url, host: parsed.host, port: parsed.port, target: target,
                                       userAgent: "aasa-monitor", certificate: false)
            if let failure = facts.failure { return .failure(GoogleResponseError(message: "\(failure.kind.rawValue): \(failure.message)")) }
            guard facts.status == 200 else {
                let detail = GoogleResponseParser.statementList(facts.body).failure?.message ?? ""
                return .failure(GoogleResponseError(message: "HTTP \(facts.status.map(String.init) ?? "?")\(detail.isEmpty ? "" : " (\(detail))")"))
            }
            return .success(facts.body)
        }
    }
}

/// The API's base URL and key, turned into request URLs with percent-encoded parameters.
struct GoogleDALEndpoint {
    let base: String
    let apiKey: String?

    init(_ settings: GoogleDALSettings) {
        var base = settings.base
        while base.hasSuffix("/") { base.removeLast() }
        self.base = base
        apiKey = settings.apiKey.flatMap { $0.isEmpty ? nil : $0 }
    }

    func url(_ method: String, _ parameters: [(String, String)]) -> String {
        let all = parameters + (apiKey.map { [("key", $0)] } ?? [])
        return "\(base)/\(method)?" + all.map { "\($0.0)=\(Self.escape($0.1))" }.joined(separator: "&")
    }

    /// RFC 3986 unreserved characters stay; every other byte is %XX.
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return out
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
