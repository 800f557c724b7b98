import Vocabulary
import Foundation
import Fetch
import Monitor
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
        /// The platform whose state `reason` explains (apple, android); absent with no reason, or when an
        /// open alert's summary leads it. Typed, so a client never reads it out of the line's words.
        let reason_platform: Platform?
        let interval_minutes: Int
        let badge: Bool
        /// both, apple or android.
        let platforms: WatchedPlatforms
        let last_checked_at: Date?
        let last_changed_at: Date?
        let next_check_at: Date
        /// Paused: not checked until resumed (PATCH with "paused": false), so next_check_at does not hold.
        let paused: Bool
        /// The expectations as a registration gives them, so a script can send them back.
        var app_ids: [AppIDEntry]?
        var watched_urls: [WatchedURLEntry]?
        /// The Android apps the domain itself must verify (an app's own are under /api/v1/apps): each
        /// package with the SHA-256 fingerprints of which one must be granted handle_all_urls, read
        /// back upper-case and colon-separated as stored, upload keys also among `fingerprints`.
        var android_apps: [AndroidAppEntry]?
        /// Android's side by the latest check; absent when Android is not watched, does not count for
        /// the domain (no assetlinks.json, no Android app expected) or was never checked.
        var android: AndroidJSON?
        /// What the list's items carry too (the single object and the list return the same fields):
        /// the open alerts and each platform's state (absent: not watched, not counted or not checked
        /// yet). Absent from the export, which reads no alerts.
        var open_alerts: Int?
        var apple_state: DomainState?
        var android_state: DomainState?
    }

    /// Android's assetlinks.json as the latest check judged it, with Google's verdict beside it.
    struct AndroidJSON: Encodable {
        let state: DomainState
        /// When assetlinks.json was last fetched (a site without one is probed now and then).
        let last_checked_at: Date?
        let version: String?
        let findings: [FindingJSON]
        let google: GoogleJSON?
    }

    struct GoogleJSON: Encodable {
        let error_codes: [String]
        let max_age_seconds: Double?
        let debug_string: String?
        let statement_count: Int
        /// "package fingerprint" of each expected identity Google says is not linked.
        let not_linked: [String]
        /// Google's statements differ from the origin's beyond maxAge plus the grace period.
        let stale: Bool
        /// Why Google's API could not be asked; absent when it answered.
        let unavailable: String?
    }

    /// `state`: Android's state as stored (`platformVerdicts`), unmet expectations included.
    static func androidJSON(_ d: DomainRecord, latest: CheckRow?, state: Verdict?) -> AndroidJSON? {
        guard let a = latest?.android, a.counts(for: d.platforms) else { return nil }
        return AndroidJSON(state: DomainState(verdict: state ?? a.verdict), last_checked_at: a.probedAt, version: a.versionSHA256,
                           findings: a.findings.sorted { $0.severity < $1.severity }.map(FindingJSON.init),
                           google: a.google.map {
                               GoogleJSON(error_codes: $0.errorCodes, max_age_seconds: $0.maxAgeSeconds, debug_string: $0.debugString,
                                          statement_count: $0.statementCount, not_linked: $0.notLinked, stale: $0.staleBeyondGrace,
                                          unavailable: $0.unavailable)
                           })
    }

    /// A registration or a change as the API takes it, after the body fitted `registrationSchema`
    /// or `changeSchema` (so every present member has its documented type and form): each member
    /// given replaces `base`'s (a new domain's defaults, or the domain as stored for a PATCH).
    static func registration(_ members: [String: APIJSON], base: Registration) -> Registration {
        func objects(_ name: String) -> [[String: APIJSON]]? { members[name]?.array?.compactMap(\.object) }
        func strings(_ v: APIJSON?) -> [String] { v?.array?.compactMap(\.string) ?? [] }
        var r = base
        if let host = members["host"]?.string { r.host = host }
        if let minutes = members["interval_minutes"]?.integer { r.intervalMinutes = minutes }
        if let badge = members["badge"]?.bool { r.badge = badge }
        if let platforms = members["platforms"]?.string { r.platforms = platforms }
        if let apps = objects("app_ids") {
            r.appIDs = apps.map { AppIDEntry(service: $0["service"]?.string ?? "", appID: $0["app_id"]?.string ?? "") }
        }
        if let watched = objects("watched_urls") {
            r.watchedURLs = watched.map { WatchedURLEntry(url: $0["url"]?.string ?? "", expect: $0["expect"]?.string ?? "", android: $0["android"]?.string) }
        }
        if let apps = objects("android_apps") {
            r.androidApps = apps.map { AndroidAppEntry(package: $0["package"]?.string ?? "", fingerprints: strings($0["fingerprints"]),
                                                       uploadKeys: strings($0["upload_keys"])) }
        }
        return r
    }

    /// The members a registration may carry, each with the form the server enforces (published in
    /// the OpenAPI document from these same values).
    static let inputMembers: [(name: String, schema: APISchema)] = [
        ("host", .string(pattern: APIPatterns.host, maxLength: 253,
                         description: "Unicode or Punycode, any case, an optional *. wildcard prefix; converted with IDNA2008 (422 when it refuses the name)",
                         example: "example.com")),
        ("interval_minutes", .integerEnum(Registration.offeredIntervals.map(\.minutes))),
        ("badge", .boolean),
        ("platforms", .stringEnum(WatchedPlatforms.allCases.map(\.rawValue))),
        ("app_ids", .array(.object([("service", .stringEnum(Service.allCases.map(\.rawValue))),
                                    ("app_id", .string(pattern: APIPatterns.appID, maxLength: 255, example: "ABCDE12345.com.example.app"))],
                                   required: ["service", "app_id"]),
                           maxItems: 100)),
        ("watched_urls", .array(.object([("url", .string(pattern: APIPatterns.watchedURL, maxLength: 2048,
                                                         description: "A whole URL on the domain (422 when it is on another host)",
                                                         example: "https://example.com/app/1")),
                                         ("expect", .string(pattern: APIPatterns.expectation, maxLength: 255,
                                                            description: "An app ID, or browser", example: "browser")),
                                         ("android", .string(pattern: APIPatterns.androidExpectation, maxLength: 255,
                                                             description: "What it must do on Android, when not what expect implies: an Android package name, or nothing",
                                                             example: "com.example.app"))],
                                        required: ["url", "expect"]),
                                maxItems: 100)),
        // No pattern: the registry says what is wrong with a package or a fingerprint in the form's
        // words (a SHA-1 fingerprint, a segment starting with a digit), as a 422 naming the entry.
        ("android_apps", .array(.object([("package", .string(pattern: nil, maxLength: 255,
                                                             description: "The Android application ID (422 when it is not one)",
                                                             example: "com.example.app")),
                                         ("fingerprints", .array(.string(pattern: nil, maxLength: 200,
                                                                         description: "A SHA-256 signing-certificate fingerprint: 32 hex octets, colons optional, any case (422 when it is not one)",
                                                                         example: "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"),
                                                                 maxItems: 20)),
                                         ("upload_keys", .array(.string(pattern: nil, maxLength: 200,
                                                                        description: "An upload key's SHA-256 fingerprint (Play App Signing re-signs with Google's key): a file granting only these is named as that mistake",
                                                                        example: "AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89"),
                                                                maxItems: 20))],
                                        required: ["package", "fingerprints"]),
                                maxItems: 20)),
    ]
    static let registrationSchema = APISchema.object(inputMembers, required: ["host"])

    /// Why a host does not fit its pattern, in `HostName`'s words (a scheme, a path, a port …).
    static let hostProblem: @Sendable (String) -> String? = { text in
        do {
            _ = try HostName(text)
            return nil
        } catch let refusal as HostNameError {
            return refusal.message
        } catch {
            return nil
        }
    }
    /// A change: every member but the host, which cannot change; and pausing or resuming the domain.
    static let changeSchema = APISchema.object(inputMembers.filter { $0.name != "host" } + [("paused", .boolean)], required: [])

    static let listParameters: [(name: String, schema: APISchema)] = [
        ("state", .stringEnum(DomainState.allCases.map(\.rawValue))),
        ("platform", .stringEnum(Platform.allCases.map(\.rawValue))),
        ("q", .string(pattern: APIPatterns.searchText, maxLength: 200, description: "Part of a host or display name")),
        ("sort", .stringEnum(OverviewSort.allCases.map(\.rawValue))),
        ("dir", .stringEnum(["asc", "desc"])),
        ("page", .integer(minimum: 1, maximum: 100_000)),
        ("per_page", .integer(minimum: 1, maximum: 1000)),
        ("after", .integer(minimum: 1, maximum: Int(Int64.max))),
    ]
    static let checksParameters: [(name: String, schema: APISchema)] = [
        ("limit", .integer(minimum: 1, maximum: 500)),
        ("changes", .boolean),
    ]
    static let diffParameters: [(name: String, schema: APISchema)] = [
        ("from", .string(pattern: APIPatterns.sha256, maxLength: 64, description: "A version's SHA-256")),
        ("to", .string(pattern: APIPatterns.sha256, maxLength: 64, description: "A version's SHA-256")),
    ]

    static func json(_ d: DomainRecord, now: Date,
                     detail: (apps: [AppIDExpectation], watched: [WatchedURLExpectation], android: [AndroidAppExpectation], latest: CheckRow?,
                              androidState: Verdict?)? = nil) -> DomainJSON {
        var j = DomainJSON(id: d.id, host: d.host, display_name: d.displayName, wildcard: d.wildcard,
                           state: DomainState(verdict: d.lastVerdict, checking: d.isChecking(now: now)).rawValue, reason: d.lastReason?.line, reason_platform: d.lastReason?.platform,
                           interval_minutes: d.intervalSeconds / 60, badge: d.badgeEnabled, platforms: d.platforms, last_checked_at: d.lastCheckedAt,
                           last_changed_at: d.lastChangedAt, next_check_at: d.nextCheckAt, paused: d.paused)
        if let detail {
            j.app_ids = detail.apps.map(AppIDEntry.init)
            j.watched_urls = detail.watched.map(WatchedURLEntry.init)
            j.android_apps = detail.android.map { AndroidAppEntry(package: $0.packageName, fingerprints: $0.fingerprints, uploadKeys: $0.uploadKeys) }
            j.android = androidJSON(d, latest: detail.latest, state: detail.androidState)
        }
        return j
    }

    static func list(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        let query = try APIRequest.query(c, listParameters)
        var q = OverviewFilter(query)
        q.pageSize = query["per_page"].flatMap(APISchema.decimalInteger) ?? 100
        q.before = nil   // the API pages forward only
        // after pages by keyset where the order is an index's; elsewhere page decides (as the Store
        // does), so a request the schema allows is never refused for the combination.
        let result = try store.overview(q)
        struct Item: Encodable {
            let id: Int64, host: String, display_name: String, state: DomainState, reason: String?, reason_platform: Platform?
            let last_checked_at: Date?, last_changed_at: Date?, open_alerts: Int
            /// The setting, and each platform's state by the latest check (absent: not watched or not counted).
            let platforms: WatchedPlatforms, apple_state: DomainState?, android_state: DomainState?
            let paused: Bool
        }
        struct Page: Encodable {
            let domains: [Item]; let total: Int
            /// true: at least `total` match (a broad search is counted only as far as its pages reach); absent: `total` is the count.
            let total_is_lower_bound: Bool?
            let page: Int; let per_page: Int
            /// The `after` of the next page (the last domain's id) when this one is full and the order allows keyset paging.
            let next_after: Int64?
        }
        let nextAfter = q.allowsKeyset && result.items.count == q.pageSize ? result.items.last?.id : nil
        return APIResponses.json(Page(domains: result.items.map {
            Item(id: $0.id, host: $0.host, display_name: $0.displayName, state: $0.state, reason: $0.reason?.line, reason_platform: $0.reason?.platform,
                 last_checked_at: $0.lastCheckedAt, last_changed_at: $0.lastChangedAt, open_alerts: $0.openAlerts,
                 platforms: $0.platforms, apple_state: $0.appleState, android_state: $0.androidState, paused: $0.paused)
        }, total: result.matching, total_is_lower_bound: result.matchingCapped ? true : nil, page: q.page, per_page: q.pageSize, next_after: nextAfter))
    }

    /// The registry's refusal as the API's error: the first refused field, named as in the JSON body.
    static func error(_ refusal: RegistrationError) -> WebError {
        let (field, message) = refusal.first
        switch refusal {
        case .alreadyRegistered: return WebError.conflict(message, field: "host")
        case .noSuchDomain: return WebError.notFound("No such domain.")
        // The body had the documented form (APIRequest checked it): what the registry still refuses
        // is a rule no schema states (IDNA, a watched URL on another host), so 422, not 400.
        case .invalid: return WebError.unprocessable(message, field: field.map(apiField) ?? "body")
        }
    }

    static func apiField(_ field: RegistrationField) -> String {
        switch field {
        case .host: "host"
        case .interval: "interval_minutes"
        case .platforms: "platforms"
        case .service(let i): "app_ids[\(i)].service"
        case .appID(let i): "app_ids[\(i)].app_id"
        case .watchedURL(let i): "watched_urls[\(i)].url"
        case .expectation(let i): "watched_urls[\(i)].expect"
        case .androidExpectation(let i): "watched_urls[\(i)].android"
        case .androidPackage(let i): "android_apps[\(i)].package"
        case .androidFingerprints(let i): "android_apps[\(i)].fingerprints"
        }
    }

    static func create(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        let id: Int64
        do {
            id = try c.registry.register(registration(try APIRequest.body(c, registrationSchema, explain: ["host": hostProblem]),
                                                      base: Registration(host: "")))
        } catch let refusal as RegistrationError {
            throw error(refusal)
        }
        return try read(c, store: store, id: id, status: 201).with(header: "Location", "/api/v1/domains/\(id)")
    }

    /// The domain the path names, by id or by host (`DomainAddress`).
    static func record(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> DomainRecord {
        guard let d = try DomainAddress.record(c.parameters["domain"], in: store) else {
            throw WebError.notFound("No domain with this id or host.")
        }
        return d
    }

    static func read(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse { try read(c, store: store, id: try record(c, store: store).id, status: 200) }

    static func read(_ c: RequestContext, store: any DomainStore & CheckStore, id: Int64, status: Int) throws -> WebResponse {
        guard let d = try store.domain(id: id) else { throw WebError.notFound("No such domain.") }
        let latest = try d.lastCheckID.flatMap { try store.check(id: $0) }
        let states = try store.platformVerdicts(domainID: id)
        var j = json(d, now: c.now, detail: (try store.appIDExpectations(domainID: id), try store.watchedURLs(domainID: id),
                                             try store.androidAppExpectations(domainID: id), latest, states.android))
        // As the list's item says them (`OverviewItem`): the same stored columns, the same words.
        j.open_alerts = try store.openAlertCount(domainID: id)
        j.apple_state = states.apple.map { DomainState(verdict: $0) }
        j.android_state = states.android.map { DomainState(verdict: $0) }
        return APIResponses.json(j, status: status)
    }

    static func update(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        let d = try record(c, store: store)
        let members = try APIRequest.body(c, changeSchema, refusing: ["host": "The host of a domain cannot change; register the new host instead."])
        // Members left out keep their value; Android apps left out stay nil, which the registry leaves as stored.
        let stored = Registration(host: d.host, appIDs: try store.appIDExpectations(domainID: d.id).map(AppIDEntry.init),
                                  watchedURLs: try store.watchedURLs(domainID: d.id).map(WatchedURLEntry.init),
                                  intervalMinutes: d.intervalSeconds / 60, badge: d.badgeEnabled, platforms: d.platforms.rawValue)
        do {
            // Only "paused" given: a pause or a resume, which re-measures nothing.
            if members.keys.contains(where: { $0 != "paused" }) {
                try c.registry.edit(domainID: d.id, registration(members, base: stored))
            }
        } catch let refusal as RegistrationError {
            throw error(refusal)
        }
        if let paused = members["paused"]?.bool {
            try c.registry.setPaused(domainID: d.id, paused)
        }
        return try read(c, store: store, id: d.id, status: 200)
    }

    static func delete(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        let d = try record(c, store: store)
        try c.registry.delete(domainID: d.id)
        return WebResponse(status: 204)
    }

    static func checkNow(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        let d = try record(c, store: store)
        try c.registry.requestCheck(domainID: d.id)
        struct Accepted: Encodable { let id: Int64; let check_requested: Bool; let status_url: String }
        // A paused domain is not checked: check_requested says so (false) until it is resumed.
        return APIResponses.json(Accepted(id: d.id, check_requested: !d.paused, status_url: "/api/v1/domains/\(d.id)"), status: 202)
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
        /// The assetlinks.json the origin served; absent when none or Android was not checked.
        let android_version: String?
        /// What changed on Android since the check before it in this list, as the domain page's timeline
        /// says it (`AndroidTimelineEvent`); empty for a check that did not check Android.
        let android_events: [String]
    }

    struct UnchangedJSON: Encodable {
        let count: Int, first_at: Date, last_at: Date
    }

    struct FindingJSON: Encodable {
        let code: String, severity: String, location: String?, message: String, hint: String?, affects: String?

        init(_ f: Finding) {
            (code, severity, location, message, hint, affects) = (f.code, f.severity.rawValue, f.location?.pointer, f.message, f.hint, f.affects)
        }
    }

    static func findingsJSON(_ check: CheckRow) -> [FindingJSON] {
        DomainPageBuilder.findings(check).map(FindingJSON.init)
    }

    static func checks(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        let query = try APIRequest.query(c, checksParameters)
        let d = try record(c, store: store)
        let limit = query["limit"].flatMap(APISchema.decimalInteger) ?? 50
        let rows = try store.checks(domainID: d.id, onlyChanges: query["changes"] == "true", limit: limit)
        let runs = try store.unchangedRuns(domainID: d.id, limit: limit)
        // Android's events compare each check with the one before it, so they are worked out oldest first.
        var androidEvents: [Int64: [String]] = [:]
        var previous: AndroidResult?, seen = Set<String>()
        for row in rows.reversed() {
            androidEvents[row.id] = AndroidTimelineEvent.between(previous, row.android, platforms: d.platforms,
                                                                 seen: seen).map(\.text)
            if let sha = row.android?.versionSHA256 { seen.insert(sha) }
            if row.android != nil { previous = row.android }
        }
        return APIResponses.json(["checks": rows.map {
            CheckJSON(id: $0.id, started_at: $0.startedAt, finished_at: $0.finishedAt, verdict: $0.verdict,
                      origin_version: $0.originVersionSHA256, cdn_version: $0.cdnVersionSHA256, latency_ms: $0.latencyMilliseconds,
                      changed: $0.changed, findings: findingsJSON($0),
                      unchanged_after: runs[$0.id].map { UnchangedJSON(count: $0.count, first_at: $0.firstAt, last_at: $0.lastAt) },
                      android_version: $0.androidVersionSHA256, android_events: androidEvents[$0.id] ?? [])
        }])
    }

    static func findings(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        _ = try APIRequest.query(c, [])
        let d = try record(c, store: store)
        let latest = try d.lastCheckID.flatMap { try store.check(id: $0) }
        struct Body: Encodable { let check_id: Int64?; let findings: [FindingJSON] }
        return APIResponses.json(Body(check_id: latest?.id, findings: latest.map(findingsJSON) ?? []))
    }

    static func diff(_ c: RequestContext, store: any DomainStore & CheckStore) throws -> WebResponse {
        let query = try APIRequest.query(c, diffParameters)
        let d = try record(c, store: store)
        let versions = try store.versions(domainID: d.id, platform: .apple)
        let watched = try store.watchedURLs(domainID: d.id).map(\.url)
        guard versions.count >= 2 || (query["from"] != nil && query["to"] != nil) else {
            throw WebError.notFound("This domain has served only one version so far.")
        }
        for key in ["from", "to"] {
            if let v = query[key], !versions.contains(where: { $0.sha256 == v }) {
                throw WebError.notFound("\(key) is not a version of this domain.")
            }
        }
        guard let view = try DomainPageBuilder.diffView(versions: versions, watched: watched, query: query, db: store) else {
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

    static let testURLSchema = APISchema.object([
        ("url", .string(pattern: APIPatterns.watchedURL, maxLength: 2048, example: "https://example.com/app/1")),
        ("aasa", .string(pattern: nil, maxLength: 128 << 10, description: "A pasted apple-app-site-association file",
                         example: #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/app/*"}]}]}}"#)),
        ("assetlinks", .string(pattern: nil, maxLength: 128 << 10, description: "A pasted assetlinks.json (else the domain's stored one)",
                               example: #"[{"relation": ["delegate_permission/common.handle_all_urls"], "target": {"namespace": "android_app", "package_name": "com.example.app", "sha256_cert_fingerprints": []}}]"#)),
        ("package", .string(pattern: nil, maxLength: 255, description: "The Android package to ask about (else every app the file verifies)",
                            example: "com.example.app")),
        ("domain_id", .integer(minimum: 1, maximum: Int(Int64.max))),
    ], required: ["url"])

    static func testURL(_ c: RequestContext, tester: TesterHandlers) throws -> WebResponse {
        let members = try APIRequest.body(c, testURLSchema)
        struct Input { var url: String; var aasa: String?; var assetlinks: String?; var package: String?; var domain_id: Int64? }
        let input = Input(url: members["url"]?.string ?? "", aasa: members["aasa"]?.string, assetlinks: members["assetlinks"]?.string,
                          package: members["package"]?.string, domain_id: members["domain_id"]?.integer.map(Int64.init))
        // No domain_id: the URL's own registered domain, as on the page.
        let registered = try tester.registeredFile(try tester.domainID(chosen: input.domain_id, url: input.url))
        let apple = try tester.evaluate(url: input.url, pasted: input.aasa ?? "", registered: registered)
        func refused(_ p: TesterHandlers.Problem) -> WebError {
            WebError.unprocessable(p.message, field: ["aasa": "aasa", "domain": "domain_id", "assetlinks": "assetlinks"][p.field ?? ""] ?? "url")
        }
        // The URL itself is refused before either platform is asked.
        if case .failure(let p) = apple, p.field == "url" { throw refused(p) }
        // Android answers from a pasted assetlinks.json or the domain's stored one; nil: neither there.
        let android: TesterModel.AndroidAnswer?
        switch try tester.evaluateAndroid(url: input.url, pasted: input.assetlinks ?? "", package: input.package ?? "", registered: registered) {
        case .success(let answer)?: android = answer
        case .failure(let p)?: throw refused(p)
        case nil: android = nil
        }
        struct App: Encodable { let app_id: String; let opens: Bool; let reason: String; let deciding_rule: String? }
        struct AndroidApp: Encodable {
            let package_name: String
            let opens: Bool, reason: String, deciding_rule: String?
            let opens_before_android_15: Bool, reason_before_android_15: String
        }
        struct AndroidBody: Encodable {
            let source: String
            let opens: String?, opens_before_android_15: String?
            let apps: [AndroidApp]
            let findings: [String]
        }
        struct Body: Encodable {
            let url: String
            let opens: String?, source: String?, apps: [App]?
            /// Why Apple has no answer while Android has one (no stored AASA: e.g. a domain watched for Android only).
            let apple_error: String?
            let android: AndroidBody?
        }
        let androidBody = android.map { a in
            AndroidBody(source: a.source, opens: a.opens, opens_before_android_15: a.opensOlder, apps: a.apps.map {
                AndroidApp(package_name: $0.packageName, opens: $0.opensDynamic, reason: $0.dynamicReason, deciding_rule: a.decidingRule($0),
                           opens_before_android_15: $0.opensOlder, reason_before_android_15: $0.olderReason)
            }, findings: a.findings)
        }
        switch apple {
        case .failure(let p):
            // No stored AASA, no such domain or an unreadable file: 422, unless Android answered.
            guard let androidBody else { throw refused(p) }
            return APIResponses.json(Body(url: input.url, opens: nil, source: nil, apps: nil, apple_error: p.message, android: androidBody))
        case .success(let r):
            return APIResponses.json(Body(url: input.url, opens: r.opens, source: r.source, apps: r.outcomes.map { o in
                App(app_id: o.appID, opens: o.opens, reason: o.reason, deciding_rule: o.steps.first { $0.decides }?.text)
            }, apple_error: nil, android: androidBody))
        }
    }
}
