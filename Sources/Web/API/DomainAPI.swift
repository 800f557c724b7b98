import Vocabulary
import Foundation
import Registry
import Store

/// `/api/v1`: the same operations as the pages, as JSON, for scripts with a bearer token.
enum DomainAPI {
    struct DomainJSON: Encodable {
        let id: Int64
        let host: String
        let display_name: String
        let wildcard: Bool
        let state: String
        /// Why, in one line: an unmet expectation, else the worst finding; null when all is well.
        let reason: String?
        let interval_minutes: Int
        let badge: Bool
        let last_checked_at: Date?
        let last_changed_at: Date?
        let next_check_at: Date
        var app_ids: [AppIDJSON]?
        var watched_urls: [WatchedJSON]?
    }

    struct AppIDJSON: Codable {
        let service: String
        let app_id: String
    }

    struct WatchedJSON: Codable {
        let url: String
        /// An app ID, or "browser".
        let expect: String
    }

    struct DomainInput: Decodable {
        let host: String?
        let interval_minutes: Int?
        let badge: Bool?
        let app_ids: [AppIDJSON]?
        let watched_urls: [WatchedJSON]?
    }

    static func json(_ d: DomainRecord, now: Date, detail: (apps: [AppIDExpectation], watched: [WatchedURLExpectation])? = nil) -> DomainJSON {
        var j = DomainJSON(id: d.id, host: d.host, display_name: d.displayName, wildcard: d.wildcard,
                           state: DomainState(verdict: d.lastVerdict, checking: d.isChecking(now: now)).rawValue, reason: d.lastReason,
                           interval_minutes: d.intervalSeconds / 60, badge: d.badgeEnabled, last_checked_at: d.lastCheckedAt,
                           last_changed_at: d.lastChangedAt, next_check_at: d.nextCheckAt)
        if let detail {
            j.app_ids = detail.apps.map { AppIDJSON(service: $0.service.rawValue, app_id: $0.appID) }
            j.watched_urls = detail.watched.map { WatchedJSON(url: $0.url, expect: $0.expectedAppID ?? "browser") }
        }
        return j
    }

    static func list(_ c: RequestContext) throws -> WebResponse {
        var q = OverviewQuery(c.query)
        q.pageSize = min(max(Int(c.query["per_page"] ?? "") ?? 100, 1), 1000)
        let result = try c.database.overview(DomainHandlers.filter(q))
        struct Item: Encodable {
            let id: Int64, host: String, display_name: String, state: DomainState, reason: String?
            let last_checked_at: Date?, last_changed_at: Date?, open_alerts: Int
        }
        struct Page: Encodable { let domains: [Item]; let total: Int; let page: Int; let per_page: Int }
        return APIResponses.json(Page(domains: result.items.map {
            Item(id: $0.id, host: $0.host, display_name: $0.displayName, state: $0.state, reason: $0.reason,
                 last_checked_at: $0.lastCheckedAt, last_changed_at: $0.lastChangedAt, open_alerts: $0.openAlerts)
        }, total: result.matching, page: q.page, per_page: q.pageSize))
    }

    static func body(_ c: RequestContext) throws -> DomainInput {
        guard c.request.body.count <= 256 << 10 else { throw WebError.badRequest("The body is larger than 256 KB.") }
        do {
            return try JSONDecoder().decode(DomainInput.self, from: Data(c.request.body))
        } catch {
            throw WebError.badRequest("The body must be a JSON object such as {\"host\": \"example.com\"}.")
        }
    }

    static func registration(_ input: DomainInput) -> Registration {
        Registration(host: input.host ?? "", appIDs: (input.app_ids ?? []).map { .init(service: $0.service, appID: $0.app_id) },
                     watchedURLs: (input.watched_urls ?? []).map { .init(url: $0.url, expect: $0.expect) },
                     intervalMinutes: input.interval_minutes, badge: input.badge ?? false)
    }

    /// The registry's refusal as the API's error: the first refused field, named as in the JSON body.
    static func error(_ refusal: RegistrationError) -> WebError {
        let (field, message) = refusal.first
        switch refusal {
        case .alreadyRegistered: return WebError.conflict(message, field: "host")
        case .noSuchDomain: return WebError.notFound("No domain with this id.")
        case .invalid: return WebError.badRequest(message, field: field.map(apiField) ?? "body")
        }
    }

    static func apiField(_ field: RegistrationField) -> String {
        switch field {
        case .host: "host"
        case .interval: "interval_minutes"
        case .service(let i): "app_ids[\(i)].service"
        case .appID(let i): "app_ids[\(i)].app_id"
        case .watchedURL(let i): "watched_urls[\(i)].url"
        case .expectation(let i): "watched_urls[\(i)].expect"
        }
    }

    static func create(_ c: RequestContext) throws -> WebResponse {
        let id: Int64
        do {
            id = try c.registry.register(registration(try body(c)))
        } catch let refusal as RegistrationError {
            throw error(refusal)
        }
        return try read(c, id: id, status: 201).with(header: "Location", "/api/v1/domains/\(id)")
    }

    static func record(_ c: RequestContext) throws -> DomainRecord {
        guard let id = c.parameters.id("id"), let d = try c.database.domain(id: id) else { throw WebError.notFound("No domain with this id.") }
        return d
    }

    static func read(_ c: RequestContext) throws -> WebResponse { try read(c, id: try record(c).id, status: 200) }

    static func read(_ c: RequestContext, id: Int64, status: Int) throws -> WebResponse {
        guard let d = try c.database.domain(id: id) else { throw WebError.notFound("No domain with this id.") }
        return APIResponses.json(json(d, now: c.now, detail: (try c.database.appIDExpectations(domainID: id),
                                                             try c.database.watchedURLs(domainID: id))), status: status)
    }

    static func update(_ c: RequestContext) throws -> WebResponse {
        let d = try record(c)
        var input = try body(c)
        if input.host != nil && input.host != d.host && input.host != d.displayName {
            throw WebError.badRequest("The host of a domain cannot change; register the new host instead.", field: "host")
        }
        // Fields left out keep their value.
        let current = (try c.database.appIDExpectations(domainID: d.id), try c.database.watchedURLs(domainID: d.id))
        input = DomainInput(host: nil, interval_minutes: input.interval_minutes ?? d.intervalSeconds / 60, badge: input.badge ?? d.badgeEnabled,
                            app_ids: input.app_ids ?? current.0.map { AppIDJSON(service: $0.service.rawValue, app_id: $0.appID) },
                            watched_urls: input.watched_urls ?? current.1.map { WatchedJSON(url: $0.url, expect: $0.expectedAppID ?? "browser") })
        do {
            try c.registry.edit(domainID: d.id, registration(input))
        } catch let refusal as RegistrationError {
            throw error(refusal)
        }
        return try read(c, id: d.id, status: 200)
    }

    static func delete(_ c: RequestContext) throws -> WebResponse {
        let d = try record(c)
        try c.registry.delete(domainID: d.id)
        return WebResponse(status: 204)
    }

    static func checkNow(_ c: RequestContext) throws -> WebResponse {
        let d = try record(c)
        try c.registry.requestCheck(domainID: d.id)
        struct Accepted: Encodable { let id: Int64; let check_requested: Bool; let status_url: String }
        return APIResponses.json(Accepted(id: d.id, check_requested: true, status_url: "/api/v1/domains/\(d.id)"), status: 202)
    }

    struct CheckJSON: Encodable {
        let id: Int64
        let started_at: Date
        let finished_at: Date?
        let verdict: Verdict?
        let origin_version: String?
        let cdn_version: String?
        let latency_ms: Int?
        let changed: Bool
        let findings: [FindingJSON]
        /// The unchanged checks that followed until the next change (stored as repeats and roll-ups).
        let unchanged_after: UnchangedJSON?
    }

    struct UnchangedJSON: Encodable {
        let count: Int, first_at: Date, last_at: Date
    }

    struct FindingJSON: Encodable {
        let code: String, severity: String, location: String?, message: String, hint: String?, affects: String?
    }

    static func findingsJSON(_ check: CheckRow) -> [FindingJSON] {
        DomainPageBuilder.findings(check).map {
            FindingJSON(code: $0.code, severity: $0.severity.rawValue, location: $0.location?.pointer, message: $0.message,
                        hint: $0.hint, affects: $0.affects)
        }
    }

    static func checks(_ c: RequestContext) throws -> WebResponse {
        let d = try record(c)
        let limit = min(max(Int(c.query["limit"] ?? "") ?? 50, 1), 500)
        let rows = try c.database.checks(domainID: d.id, onlyChanges: c.query["changes"] == "true", limit: limit)
        let runs = try c.database.unchangedRuns(domainID: d.id, limit: limit)
        return APIResponses.json(["checks": rows.map {
            CheckJSON(id: $0.id, started_at: $0.startedAt, finished_at: $0.finishedAt, verdict: $0.verdict,
                      origin_version: $0.originVersionSHA256, cdn_version: $0.cdnVersionSHA256, latency_ms: $0.latencyMilliseconds,
                      changed: $0.changed, findings: findingsJSON($0),
                      unchanged_after: runs[$0.id].map { UnchangedJSON(count: $0.count, first_at: $0.firstAt, last_at: $0.lastAt) })
        }])
    }

    static func findings(_ c: RequestContext) throws -> WebResponse {
        let d = try record(c)
        let latest = try d.lastCheckID.flatMap { try c.database.check(id: $0) }
        struct Body: Encodable { let check_id: Int64?; let findings: [FindingJSON] }
        return APIResponses.json(Body(check_id: latest?.id, findings: latest.map(findingsJSON) ?? []))
    }

    static func diff(_ c: RequestContext) throws -> WebResponse {
        let d = try record(c)
        let versions = try c.database.versions(domainID: d.id, platform: .apple)
        let watched = try c.database.watchedURLs(domainID: d.id).map(\.url)
        guard versions.count >= 2 || (c.query["from"] != nil && c.query["to"] != nil) else {
            throw WebError.notFound("This domain has served only one version so far.")
        }
        for key in ["from", "to"] {
            if let v = c.query[key], !versions.contains(where: { $0.sha256 == v }) {
                throw WebError.badRequest("\(key) is not a version of this domain.", field: key)
            }
        }
        guard let view = try DomainPageBuilder.diffView(versions: versions, watched: watched, query: c.query, db: c.database) else {
            throw WebError.notFound("No diff available.")
        }
        struct URLChange: Encodable { let url: String; let before: String; let after: String }
        struct Body: Encodable {
            let from: String, to: String, behaviourally_equal: Bool, changes: [String], watched_urls: [URLChange], text: [String]
        }
        let text = view.text.map { op -> String in
            switch op {
            case .same(let s): "  " + s
            case .added(let s): "+ " + s
            case .removed(let s): "- " + s
            case .skipped(let n): "@@ \(n) unchanged"
            }
        }
        return APIResponses.json(Body(from: view.fromHash, to: view.toHash, behaviourally_equal: view.behavioural.isEmpty && view.watched.isEmpty,
                                      changes: view.behavioural, watched_urls: view.watched.map { URLChange(url: $0.url, before: $0.before, after: $0.after) },
                                      text: text))
    }

    static func testURL(_ c: RequestContext) throws -> WebResponse {
        struct Input: Decodable { let url: String; let aasa: String?; let domain_id: Int64? }
        guard let input = try? JSONDecoder().decode(Input.self, from: Data(c.request.body)) else {
            throw WebError.badRequest("The body must be {\"url\": \"https://…\", \"aasa\": \"…\" or \"domain_id\": 1}.", field: "url")
        }
        switch try TesterHandlers(store: c.database).evaluate(url: input.url, pasted: input.aasa ?? "", domainID: input.domain_id) {
        case .failure(let p):
            throw WebError.badRequest(p.message, field: p.field == "aasa" ? "aasa" : (p.field == "domain" ? "domain_id" : "url"))
        case .success(let r):
            struct App: Encodable { let app_id: String; let opens: Bool; let reason: String; let deciding_rule: String? }
            struct Body: Encodable { let url: String; let opens: String?; let source: String; let apps: [App] }
            return APIResponses.json(Body(url: input.url, opens: r.opens, source: r.source, apps: r.outcomes.map { o in
                App(app_id: o.appID, opens: o.opens, reason: o.reason, deciding_rule: o.steps.first { $0.decides }?.text)
            }))
        }
    }
}
