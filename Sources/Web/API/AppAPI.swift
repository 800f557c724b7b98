import Foundation
import Monitor
import Registry
import Store
import Vocabulary

/// `/api/v1/apps`: the app form and page as JSON. Keys are written camelCase here and leave as
/// snake_case through `PublicJSON`, like every other public JSON. A body is read into the app
/// registry's `AppRegistration` (plus the files and `preview`), as the form's fields are.
enum AppAPI {
    struct Summary: Encodable {
        let id: Int64, name: String, appleAppIds: [String], androidPackage: String?
        /// Links (domain × platform × service) by state, each judged for this app.
        let domainCount: Int, linkCount: Int, linksByState: [String: Int], worstState: DomainState?, openAlerts: Int
    }

    struct RowJSON: Encodable { let domainId: Int64; let host: String; let cells: [AppMatrix.Cell] }
    struct WatchedJSON: Encodable {
        /// `platforms`: where the URL is watched (both, apple, android); elsewhere it is not judged.
        let url: String, domainId: Int64, platforms: WatchedPlatforms, apple: String?, appleMeetsExpectation: Bool?
        let android: String?, androidMeetsExpectation: Bool?, androidReason: String?
    }
    struct Detail: Encodable {
        let id: Int64, name: String, appleAppIds: [String], androidPackage: String?, fingerprints: [AppFingerprint]
        let domains: [RowJSON], watchedUrls: [WatchedJSON]
        /// Every domain the app claims (`domains` holds one page of them), and the `after` of the
        /// next page: absent on the last.
        let domainCount: Int, nextAfter: Int64?
    }

    /// The app detail's pages of domains, in host order: `limit` domains (default 50, as the app
    /// page; a page of 100 cost 38 / 54 ms p50 / p95 at load 9, most of it per domain) after the
    /// domain `after` names (the previous page's `next_after`). A thousand-domain app's whole matrix
    /// was 426 KB and 636 / 756 ms p50 / p95 at a million domains (issue #17); a client that read it
    /// whole gets the same members, the first page of `domains`, and `next_after` to go on.
    static let readParameters: [(name: String, schema: APISchema)] = [
        ("after", .integer(minimum: 1, maximum: Int(Int64.max))),
        ("limit", .integer(minimum: 1, maximum: 500)),
    ]
    static let defaultLimit = 50
    struct PlanJSON: Encodable {
        struct Domain: Encodable { let host: String; let isNew: Bool; let links: [Link] }
        struct Link: Encodable { let platform: Platform; let service: Service; let developerMode: Bool; let managedMode: Bool; let declaredAs: String }
        let name: String, appleAppIds: [String], androidPackage: String?, fingerprints: [AppFingerprint]
        /// `watchedUrls` on both platforms, `androidWatchedUrls` on Android only (the manifest's paths),
        /// as the input's members of those names.
        let domains: [Domain], watchedUrls: [String], androidWatchedUrls: [String], ignored: [String], notes: [String]
        /// An edit's preview: the domains the app would stop claiming (they stay registered).
        let dropped: [String]
    }

    static func list(_ c: RequestContext, store: any AppStore) throws -> WebResponse {
        struct Page: Encodable { let apps: [Summary] }
        return APIResponses.json(Page(apps: try AppSummary.load(from: store).map {
            Summary(id: $0.id, name: $0.name, appleAppIds: $0.appleAppIDs, androidPackage: $0.androidPackage, domainCount: $0.domainCount,
                    linkCount: $0.linkCount, linksByState: Dictionary(uniqueKeysWithValues: $0.states.map { ($0.key.rawValue, $0.value) }),
                    worstState: $0.worstState, openAlerts: $0.openAlerts)
        }))
    }

    /// The body the document publishes and the server enforces (`APIRequest`): types, app IDs' form,
    /// sizes. What the app registry then refuses (a package name, a fingerprint, a host, a domain
    /// entry, files that cannot be read, nothing to register) is a 422.
    static let inputSchema = APISchema.object([
        ("name", .string(pattern: nil, maxLength: 200, example: "Example")),
        ("apple_app_ids", .array(.string(pattern: APIPatterns.appID, maxLength: 255, example: "ABCDE12345.com.example.app"), maxItems: 100)),
        ("android_package", .string(pattern: nil, maxLength: 255, example: "com.example.app")),
        ("fingerprints", .array(.object([("fingerprint", .string(pattern: nil, maxLength: 200)),
                                         ("role", .stringEnum(SigningKeyRole.allCases.map(\.rawValue)))], required: ["fingerprint"]),
                                maxItems: 50)),
        ("apple_domains", .array(.string(pattern: nil, maxLength: 300, example: "applinks:example.com"), maxItems: 200)),
        ("android_hosts", .array(.string(pattern: nil, maxLength: 253), maxItems: 200)),
        ("watched_urls", .array(.string(pattern: nil, maxLength: 2048), maxItems: 200)),
        ("android_watched_urls", .array(.string(pattern: nil, maxLength: 2048), maxItems: 200)),
        ("entitlements", .string(pattern: nil, maxLength: 800 << 10, description: "An .entitlements property list (XML), or base64: and a binary one")),
        ("manifest", .string(pattern: nil, maxLength: 800 << 10, description: "An AndroidManifest.xml")),
        ("preview", .boolean),
    ], required: [])

    /// The body's members, held to `inputSchema`.
    static func input(_ c: RequestContext) throws -> [String: APIJSON] {
        try APIRequest.body(c, inputSchema, maxBytes: 800 << 10)
    }

    /// The files' bytes: a file that cannot be read fitted the schema, so it is a 422 naming the member.
    static func files(_ input: [String: APIJSON]) throws -> (entitlements: [UInt8]?, manifest: [UInt8]?) {
        func file(_ text: String?, _ field: String) throws -> [UInt8]? {
            do {
                return try text.flatMap(AppFormFields.fileBytes)
            } catch let error as WebError {
                throw WebError.unprocessable(error.message, field: field)
            }
        }
        return (try file(input["entitlements"]?.string, "entitlements"), try file(input["manifest"]?.string, "manifest"))
    }

    /// The registration the body gives; members left out keep `base`'s value (a PATCH) or are empty
    /// (a POST). A file replaces what it declares: entitlements the Apple domains, a manifest the
    /// Android hosts and the URLs watched on Android only, unless those members are given too.
    static func registration(_ input: [String: APIJSON], base: AppRegistration = AppRegistration()) -> AppRegistration {
        func strings(_ name: String) -> [String]? { input[name]?.array?.compactMap(\.string) }
        var r = base
        if let name = input["name"]?.string { r.name = name }
        if let ids = strings("apple_app_ids") { r.appleAppIDs = ids }
        if let package = input["android_package"]?.string { r.androidPackage = package }
        if let keys = input["fingerprints"]?.array?.compactMap(\.object) {
            r.fingerprints = keys.map {
                FingerprintEntry(fingerprint: $0["fingerprint"]?.string ?? "", role: $0["role"]?.string ?? SigningKeyRole.appSigning.rawValue)
            }
        }
        r.appleDomains = strings("apple_domains") ?? (input["entitlements"]?.string == nil ? base.appleDomains : [])
        r.androidHosts = strings("android_hosts") ?? (input["manifest"]?.string == nil ? base.androidHosts : [])
        if let urls = strings("watched_urls") { r.watchedURLs = urls }
        // A manifest's paths are Android's watched URLs: a new manifest replaces the ones stored.
        r.androidWatchedURLs = strings("android_watched_urls") ?? (input["manifest"]?.string == nil ? base.androidWatchedURLs : [])
        return r
    }

    /// The registry's refusal as the API says it: 409 for a name in use, else 422 (the body fitted the
    /// document: what the registry refuses is a rule no schema states).
    static func refusal(_ refusal: AppRegistrationError) -> WebError {
        let first = refusal.problems.first
        switch refusal {
        case .nameTaken: return WebError.conflict(first?.description ?? "", field: "name")
        case .noSuchApp: return WebError.notFound("No app with this id or name.")
        case .invalid: return WebError.unprocessable(refusal.problems.map(\.description).joined(separator: " "), field: first?.field.jsonName)
        }
    }

    static func create(_ c: RequestContext, store: any AppStore & CheckStore) throws -> WebResponse {
        let input = try input(c)
        let files = try files(input)
        do {
            let plan = try c.appRegistry.plan(registration(input), entitlements: files.entitlements, manifest: files.manifest)
            if input["preview"]?.bool == true { return APIResponses.json(json(plan)) }
            let id = try c.appRegistry.register(plan)
            return try read(c, store: store, id: id, status: 201).with(header: "Location", "/api/v1/apps/\(id)")
        } catch let error as AppRegistrationError {
            throw refusal(error)
        }
    }

    /// PATCH: members left out keep their value; with `preview`, only says what the edit would do
    /// (`dropped`: the domains the app would stop claiming).
    static func change(_ c: RequestContext, store: any AppStore & CheckStore) throws -> WebResponse {
        let app = try addressed(c)
        let input = try input(c)
        let files = try files(input)
        do {
            guard let current = try c.appRegistry.registration(appID: app.id) else { throw AppRegistrationError.noSuchApp }
            let plan = try c.appRegistry.planEdit(appID: app.id, registration(input, base: current),
                                                  entitlements: files.entitlements, manifest: files.manifest)
            if input["preview"]?.bool == true { return APIResponses.json(json(plan)) }
            try c.appRegistry.edit(appID: app.id, plan)
            return try read(c, store: store, id: app.id, status: 200)
        } catch let error as AppRegistrationError {
            throw refusal(error)
        }
    }

    /// The app a path names, by id or name.
    static func addressed(_ c: RequestContext) throws -> AppRecord {
        guard let app = try c.appRegistry.app(addressed: c.parameters["id"]) else { throw WebError.notFound("No app with this id or name.") }
        return app
    }

    static func json(_ plan: AppPlan) -> PlanJSON {
        let d = plan.draft
        return PlanJSON(name: d.name, appleAppIds: d.appleAppIDs, androidPackage: d.androidPackage,
                        fingerprints: d.fingerprints,
                        domains: plan.domains.map { domain in
                            PlanJSON.Domain(host: domain.displayHost, isNew: domain.isNew, links: domain.links.map {
                                PlanJSON.Link(platform: $0.platform, service: $0.service, developerMode: $0.developerMode,
                                              managedMode: $0.managedMode, declaredAs: $0.declaredAs)
                            })
                        }, watchedUrls: d.watchedURLs.filter { $0.platforms != .android }.map(\.url),
                        androidWatchedUrls: d.watchedURLs.filter { $0.platforms == .android }.map(\.url), ignored: plan.ignored, notes: plan.notes, dropped: plan.dropped)
    }

    static func read(_ c: RequestContext, store: any AppStore & CheckStore) throws -> WebResponse {
        let query = try APIRequest.query(c, readParameters)
        let app = try addressed(c)
        return try read(c, store: store, id: app.id, status: 200,
                        after: query["after"].flatMap(APISchema.decimalInteger).map(Int64.init),
                        limit: query["limit"].flatMap(APISchema.decimalInteger) ?? defaultLimit)
    }

    /// The app with its first page of domains (after a POST or PATCH), or the page `after` names.
    static func read(_ c: RequestContext, store: any AppStore & CheckStore, id: Int64, status: Int,
                     after: Int64? = nil, limit: Int = defaultLimit) throws -> WebResponse {
        let loaded: AppMatrix?
        do {
            loaded = try AppMatrix.load(appID: id, from: store, now: c.now, window: .keyset(after: after, limit: limit))
        } catch is AppMatrix.NoSuchDomain {
            throw WebError.unprocessable("after names no domain; give the next_after of the page before.", field: "after")
        }
        guard let m = loaded else { throw WebError.notFound("No app with this id.") }
        return APIResponses.json(Detail(
            id: m.app.id, name: m.app.name, appleAppIds: m.app.appleAppIDs, androidPackage: m.app.androidPackage,
            fingerprints: m.app.fingerprints,
            domains: m.rows.map { RowJSON(domainId: $0.domainID, host: $0.displayHost, cells: $0.cells) },
            watchedUrls: m.watched.map {
                WatchedJSON(url: $0.url, domainId: $0.domainID, platforms: $0.platforms, apple: $0.apple?.actual.description, appleMeetsExpectation: $0.apple?.meetsExpectation,
                            android: $0.android?.actual.description, androidMeetsExpectation: $0.android?.meetsExpectation,
                            androidReason: $0.androidReason)
            }, domainCount: m.domainCount, nextAfter: m.nextAfter), status: status)
    }

    static func delete(_ c: RequestContext) throws -> WebResponse {
        guard try c.appRegistry.delete(appID: try addressed(c).id) else { throw WebError.notFound("No app with this id or name.") }
        return WebResponse(status: 204)
    }

    /// "Check now" for every domain the app claims: 202 with how many were requested; each domain's
    /// own resource says when its check has run.
    static func checkNow(_ c: RequestContext) throws -> WebResponse {
        let app = try addressed(c)
        struct Accepted: Encodable { let id: Int64; let checksRequested: Int; let statusUrl: String }
        return APIResponses.json(Accepted(id: app.id, checksRequested: try c.registry.requestCheck(appID: app.id),
                                          statusUrl: "/api/v1/apps/\(app.id)"), status: 202)
    }
}
