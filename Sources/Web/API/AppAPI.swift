import Foundation
import Monitor
import Registry
import Store
import Vocabulary

/// `/api/v1/apps`: the app form and page as JSON. Keys are written camelCase here and leave as
/// snake_case through `PublicJSON`, like every other public JSON.
enum AppAPI {
    struct Input: Decodable {
        var name: String?
        var appleAppIDs: [String]?
        var androidPackage: String?
        var fingerprints: [Fingerprint]?
        var appleDomains: [String]?
        var androidHosts: [String]?
        var watchedURLs: [String]?
        /// The `.entitlements` file's text, or `base64:` and a binary property list's bytes.
        var entitlements: String?
        /// The AndroidManifest.xml's text.
        var manifest: String?
        /// Only plan: answer what would be registered, write nothing.
        var preview: Bool?

        struct Fingerprint: Decodable {
            var fingerprint: String
            var role: String?
        }

        enum CodingKeys: String, CodingKey {
            case name, appleAppIDs = "apple_app_ids", androidPackage = "android_package", fingerprints, appleDomains = "apple_domains"
            case androidHosts = "android_hosts", watchedURLs = "watched_urls", entitlements, manifest, preview
        }
    }

    struct Summary: Encodable {
        let id: Int64, name: String, appleAppIds: [String], androidPackage: String?
        /// Links (domain × platform × service) by state, each judged for this app.
        let domainCount: Int, linkCount: Int, linksByState: [String: Int], worstState: DomainState?, openAlerts: Int
    }

    struct CellJSON: Encodable {
        let platform: Platform, service: Service, state: DomainState, reason: String?, since: Date?
        let developerMode: Bool, managedMode: Bool, declaredAs: String
    }
    struct RowJSON: Encodable { let domainId: Int64; let host: String; let cells: [CellJSON] }
    struct WatchedJSON: Encodable {
        let url: String, domainId: Int64, apple: String?, appleMeetsExpectation: Bool?
        let android: String?, androidMeetsExpectation: Bool?, androidReason: String?
    }
    struct KeyJSON: Encodable { let fingerprint: String; let role: SigningKeyRole }
    struct Detail: Encodable {
        let id: Int64, name: String, appleAppIds: [String], androidPackage: String?, fingerprints: [KeyJSON]
        let domains: [RowJSON], watchedUrls: [WatchedJSON]
    }
    struct PlanJSON: Encodable {
        struct Domain: Encodable { let host: String; let isNew: Bool; let links: [Link] }
        struct Link: Encodable { let platform: Platform; let service: Service; let developerMode: Bool; let managedMode: Bool; let declaredAs: String }
        let name: String, appleAppIds: [String], androidPackage: String?, fingerprints: [KeyJSON]
        let domains: [Domain], watchedUrls: [String], ignored: [String], notes: [String]
    }

    static func list(_ c: RequestContext) throws -> WebResponse {
        struct Page: Encodable { let apps: [Summary] }
        return APIResponses.json(Page(apps: try AppSummary.load(from: c.database).map {
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
        ("entitlements", .string(pattern: nil, maxLength: 800 << 10, description: "An .entitlements property list (XML), or base64: and a binary one")),
        ("manifest", .string(pattern: nil, maxLength: 800 << 10, description: "An AndroidManifest.xml")),
        ("preview", .boolean),
    ], required: [])

    static func create(_ c: RequestContext) throws -> WebResponse {
        _ = try APIRequest.body(c, inputSchema, maxBytes: 800 << 10)
        let input: Input
        do {
            input = try JSONDecoder().decode(Input.self, from: Data(c.request.body))
        } catch {
            throw WebError.badRequest("The body must be a JSON object such as {\"apple_app_ids\": [\"ABCDE12345.com.example.app\"], \"apple_domains\": [\"applinks:example.com\"]}.")
        }
        func file(_ text: String?, _ field: String) throws -> [UInt8]? {
            do {
                return try text.flatMap(AppFormFields.fileBytes)
            } catch let error as WebError {
                throw WebError.unprocessable(error.message, field: field)
            }
        }
        let registration = AppRegistration(
            name: input.name ?? "", appleAppIDs: input.appleAppIDs ?? [], androidPackage: input.androidPackage ?? "",
            fingerprints: (input.fingerprints ?? []).map { .init(fingerprint: $0.fingerprint, role: $0.role ?? SigningKeyRole.appSigning.rawValue) },
            appleDomains: input.appleDomains ?? [], androidHosts: input.androidHosts ?? [], watchedURLs: input.watchedURLs ?? [])
        do {
            let plan = try c.appRegistry.plan(registration, entitlements: try file(input.entitlements, "entitlements"),
                                              manifest: try file(input.manifest, "manifest"))
            if input.preview == true { return APIResponses.json(json(plan)) }
            let id = try c.appRegistry.register(plan)
            return try read(c, id: id, status: 201).with(header: "Location", "/api/v1/apps/\(id)")
        } catch let refusal as AppRegistrationError {
            let first = refusal.problems.first
            if case .nameTaken = refusal { throw WebError.conflict(first?.description ?? "", field: "name") }
            // The body fitted the document: what the registry refuses is a rule no schema states.
            throw WebError.unprocessable(refusal.problems.map(\.description).joined(separator: " "), field: first?.field.jsonName)
        }
    }

    static func json(_ plan: AppPlan) -> PlanJSON {
        let d = plan.draft
        return PlanJSON(name: d.name, appleAppIds: d.appleAppIDs, androidPackage: d.androidPackage,
                        fingerprints: d.fingerprints.map { KeyJSON(fingerprint: $0.fingerprint, role: $0.role) },
                        domains: plan.domains.map { domain in
                            PlanJSON.Domain(host: domain.displayHost, isNew: domain.isNew, links: domain.links.map {
                                PlanJSON.Link(platform: $0.platform, service: $0.service, developerMode: $0.developerMode,
                                              managedMode: $0.managedMode, declaredAs: $0.declaredAs)
                            })
                        }, watchedUrls: d.watchedURLs.map(\.url), ignored: plan.ignored, notes: plan.notes)
    }

    static func read(_ c: RequestContext) throws -> WebResponse {
        guard let id = c.parameters.id("id") else { throw WebError.notFound("No app with this id.") }
        return try read(c, id: id, status: 200)
    }

    static func read(_ c: RequestContext, id: Int64, status: Int) throws -> WebResponse {
        guard let m = try AppMatrix.load(appID: id, from: c.database, now: c.now) else { throw WebError.notFound("No app with this id.") }
        return APIResponses.json(Detail(
            id: m.app.id, name: m.app.name, appleAppIds: m.app.appleAppIDs, androidPackage: m.app.androidPackage,
            fingerprints: m.app.fingerprints.map { KeyJSON(fingerprint: $0.fingerprint, role: $0.role) },
            domains: m.rows.map { row in
                RowJSON(domainId: row.domainID, host: row.displayHost, cells: row.cells.map {
                    CellJSON(platform: $0.platform, service: $0.service, state: $0.state, reason: $0.reason, since: $0.since,
                             developerMode: $0.developerMode, managedMode: $0.managedMode, declaredAs: $0.declaredAs)
                })
            },
            watchedUrls: m.watched.map {
                WatchedJSON(url: $0.url, domainId: $0.domainID, apple: $0.apple?.actual.description, appleMeetsExpectation: $0.apple?.meetsExpectation,
                            android: $0.android?.actual.description, androidMeetsExpectation: $0.android?.meetsExpectation,
                            androidReason: $0.androidReason)
            }), status: status)
    }

    static func delete(_ c: RequestContext) throws -> WebResponse {
        guard let id = c.parameters.id("id"), try c.appRegistry.delete(appID: id) else { throw WebError.notFound("No app with this id.") }
        return WebResponse(status: 204)
    }
}
