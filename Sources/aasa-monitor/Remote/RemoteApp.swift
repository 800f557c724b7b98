import Foundation
import Registry

/// `app add --server` and `app import --server`: `POST /api/v1/apps`, first with `preview` (the
/// plan the local command prints), then, unless `--dry-run`, to register. The files are sent as
/// `base64:` so a binary entitlements property list arrives byte for byte.
enum RemoteApp {
    enum Outcome {
        /// The plan, and the app's id once registered (nil for a dry run).
        case planned(AppPlanLines, registeredID: Int64?)
        /// The server's refusal: the field it names and its words.
        case refused(field: String, message: String)
    }

    struct Request: Encodable {
        struct Fingerprint: Encodable { let fingerprint: String, role: String }
        var name: String?, apple_app_ids: [String]?, android_package: String?, fingerprints: [Fingerprint]?
        var apple_domains: [String]?, android_hosts: [String]?, watched_urls: [String]?
        var entitlements: String?, manifest: String?
        var preview: Bool
    }

    struct Plan: Decodable {
        struct Link: Decodable { let platform: String, service: String, developer_mode: Bool, managed_mode: Bool }
        struct Domain: Decodable { let host: String, is_new: Bool, links: [Link] }
        let name: String, domains: [Domain], watched_urls: [String], android_watched_urls: [String], ignored: [String]
    }

    static func register(_ client: APIClient, _ registration: AppRegistration, entitlements: [UInt8]?, manifest: [UInt8]?,
                         dryRun: Bool) throws(RemoteError) -> Outcome {
        var request = Request(registration, entitlements: entitlements, manifest: manifest)
        let previewed = try client.send("POST", "/apps", json: APIClient.json(request))
        if let refusal = refusal(previewed) { return refusal }
        let plan = try client.decode(Plan.self, from: previewed, expecting: 200)
        let lines = AppPlanLines(name: plan.name, domains: plan.domains.map { domain in
            AppPlanLines.Domain(host: domain.host, isNew: domain.is_new, links: domain.links.map {
                AppPlanLines.Link(platform: $0.platform, service: $0.service, developerMode: $0.developer_mode, managedMode: $0.managed_mode)
            })
        }, watched: plan.watched_urls + plan.android_watched_urls, ignored: plan.ignored)
        guard !dryRun else { return .planned(lines, registeredID: nil) }
        request.preview = false
        let registered = try client.send("POST", "/apps", json: APIClient.json(request))
        if let refusal = refusal(registered) { return refusal }
        struct Created: Decodable { let id: Int64 }
        return .planned(lines, registeredID: try client.decode(Created.self, from: registered, expecting: 201).id)
    }

    /// A 409 (the name is taken) or 422 (the registry's rules) as the local command prints a refusal.
    private static func refusal(_ answer: APIClient.Answer) -> Outcome? {
        guard answer.status == 409 || answer.status == 422 else { return nil }
        struct ErrorBody: Decodable { struct Inner: Decodable { let message: String, field: String? }; let error: Inner }
        let error = try? JSONDecoder().decode(ErrorBody.self, from: Data(answer.body))
        return .refused(field: error?.error.field ?? "app", message: error?.error.message ?? APIClient.errorMessage(answer.body))
    }
}

extension RemoteApp.Request {
    /// The members the registration gives; empty ones are left out, as the API reads a member left out as empty.
    init(_ r: AppRegistration, entitlements: [UInt8]?, manifest: [UInt8]?) {
        func given(_ list: [String]) -> [String]? { list.isEmpty ? nil : list }
        self.init(name: r.name.isEmpty ? nil : r.name, apple_app_ids: given(r.appleAppIDs),
                  android_package: r.androidPackage.isEmpty ? nil : r.androidPackage,
                  fingerprints: r.fingerprints.isEmpty ? nil : r.fingerprints.map { Fingerprint(fingerprint: $0.fingerprint, role: $0.role) },
                  apple_domains: given(r.appleDomains), android_hosts: given(r.androidHosts), watched_urls: given(r.watchedURLs),
                  entitlements: entitlements.map { "base64:" + Data($0).base64EncodedString() },
                  manifest: manifest.map { "base64:" + Data($0).base64EncodedString() }, preview: true)
    }
}
