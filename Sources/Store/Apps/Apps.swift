import Foundation
import Vocabulary

// Each change in its own transaction, for any store that can open one (the pooled `Database`).
extension AppStore where Self: TransactionalStore {
    /// Registers an app, the domains it claims that are not registered yet (each due and requested at
    /// once, at `intervalSeconds`), its links, watched URLs and the expectations they put on the
    /// domains — all in one transaction, so a failure anywhere writes nothing.
    public func createApp(_ draft: AppDraft, intervalSeconds: Int) throws -> AppCreation {
        try withTransaction { c in try c.insertApp(draft, intervalSeconds: intervalSeconds) }
    }

    /// Replaces an app's name, IDs, links and watched URLs in one transaction. The expectations its
    /// old links put on domains are taken back (unless another app puts the same ones) and the new
    /// ones placed. Returns nil when there is no such app, else the domains it registered.
    public func updateApp(id: Int64, _ draft: AppDraft, intervalSeconds: Int) throws -> [Int64]? {
        try withTransaction { c in try c.replaceApp(id: id, draft, intervalSeconds: intervalSeconds) }
    }

    /// Deletes an app and takes back the expectations it put on its domains; the domains stay
    /// registered (they may serve other apps, and their history is worth keeping). False when there was none.
    @discardableResult
    public func deleteApp(id: Int64) throws -> Bool {
        try withTransaction { c in try c.removeApp(id: id) }
    }
}

/// The same writes inside a transaction the caller holds (a config apply makes all its changes in one).
extension Connection {
    public func insertApp(_ draft: AppDraft, intervalSeconds: Int) throws -> AppCreation {
        guard let id: Int64 = try firstRow("INSERT INTO apps (name, android_package) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id",
                                           draft.name, draft.androidPackage)?.decode("id") else {
            return .nameTaken(id: try value("SELECT id FROM apps WHERE name = $1", draft.name))
        }
        let newDomains = try writeAppParts(id, draft, intervalSeconds: intervalSeconds)
        return .created(id: id, newDomainIDs: newDomains)
    }

    public func replaceApp(id: Int64, _ draft: AppDraft, intervalSeconds: Int) throws -> [Int64]? {
        guard try execute("UPDATE apps SET name = $2, android_package = $3, updated_at = now() WHERE id = $1",
                          id, draft.name, draft.androidPackage) == 1 else { return nil }
        try retractExpectations(appID: id)
        try execute("DELETE FROM app_apple_ids WHERE app_id = $1", id)
        try execute("DELETE FROM app_fingerprints WHERE app_id = $1", id)
        try execute("DELETE FROM app_links WHERE app_id = $1", id)
        try execute("DELETE FROM app_watched_urls WHERE app_id = $1", id)
        return try writeAppParts(id, draft, intervalSeconds: intervalSeconds)
    }

    public func removeApp(id: Int64) throws -> Bool {
        try retractExpectations(appID: id)
        return try execute("DELETE FROM apps WHERE id = $1", id) == 1
    }
}

extension Connection {
    /// Inserts the app's parts and the domains they name; returns the ids of domains it registered.
    fileprivate func writeAppParts(_ id: Int64, _ draft: AppDraft, intervalSeconds: Int) throws -> [Int64] {
        for (position, appleID) in draft.appleAppIDs.enumerated() {
            try execute("INSERT INTO app_apple_ids (app_id, apple_app_id, position) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                        id, appleID, position)
        }
        for key in draft.fingerprints {
            try execute("INSERT INTO app_fingerprints (app_id, fingerprint, key_role) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                        id, key.fingerprint, key.role)
        }
        var domainIDs: [AppDomainKey: Int64] = [:]
        var created: [Int64] = []
        for key in draft.domains {
            if let new: Int64 = try firstRow("""
                INSERT INTO domains (host, display_name, wildcard, interval_seconds, next_check_at, check_requested_at)
                VALUES ($1, $2, $3, $4, now(), now()) ON CONFLICT (host, wildcard) DO NOTHING RETURNING id
                """, key.host, key.displayName, key.wildcard, intervalSeconds)?.decode("id") {
                domainIDs[key] = new
                created.append(new)
            } else {
                domainIDs[key] = try value("SELECT id FROM domains WHERE host = $1 AND wildcard = $2", key.host, key.wildcard)
            }
        }
        for link in draft.links {
            try execute("""
                INSERT INTO app_links (app_id, domain_id, platform, service, developer_mode, managed_mode, declared_as)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (app_id, domain_id, platform, service) DO UPDATE
                  SET developer_mode = app_links.developer_mode OR EXCLUDED.developer_mode,
                      managed_mode = app_links.managed_mode OR EXCLUDED.managed_mode,
                      judged_state = NULL   -- developer mode changes the judgement (0058)
                """, id, domainIDs[link.domain] ?? 0, link.platform, link.service, link.developerMode, link.managedMode, link.declaredAs)
        }
        for (position, watched) in draft.watchedURLs.enumerated() {
            try execute("""
                INSERT INTO app_watched_urls (app_id, domain_id, url, position, platforms) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING
                """, id, domainIDs[watched.domain] ?? 0, watched.url, position, watched.platforms)
        }
        try placeExpectations(appID: id)
        return created
    }

    /// Each Apple link requires every Apple ID of the app in its service; each watched URL watched on
    /// Apple, on a domain the app claims for applinks, must open the app's first Apple ID.
    fileprivate func placeExpectations(appID: Int64) throws {
        try execute("""
            INSERT INTO expected_app_ids (domain_id, service, app_id)
            SELECT l.domain_id, l.service, a.apple_app_id FROM app_links l JOIN app_apple_ids a ON a.app_id = l.app_id
            WHERE l.app_id = $1 AND l.platform = 'apple'
            ON CONFLICT DO NOTHING
            """, appID)
        try execute("""
            INSERT INTO watched_urls (domain_id, url, expected_outcome, expected_app_id)
            SELECT u.domain_id, u.url, 'opens-app', first.apple_app_id
            FROM app_watched_urls u
            CROSS JOIN LATERAL (SELECT apple_app_id FROM app_apple_ids WHERE app_id = u.app_id ORDER BY position LIMIT 1) first
            WHERE u.app_id = $1 AND u.platforms <> 'android'
              AND EXISTS (SELECT 1 FROM app_links l WHERE l.app_id = u.app_id AND l.domain_id = u.domain_id
                            AND l.platform = 'apple' AND l.service = 'applinks')
            ON CONFLICT (domain_id, url) DO NOTHING
            """, appID)
    }

    /// Takes back what `placeExpectations` put, except where another app puts the same. An
    /// expectation typed on the domain form that equals one of the app's goes too: the rows do not
    /// say who wrote them.
    fileprivate func retractExpectations(appID: Int64) throws {
        try execute("""
            DELETE FROM expected_app_ids e USING app_links l, app_apple_ids a
            WHERE l.app_id = $1 AND l.platform = 'apple' AND a.app_id = $1
              AND e.domain_id = l.domain_id AND e.service = l.service AND e.app_id = a.apple_app_id
              AND NOT EXISTS (SELECT 1 FROM app_links l2 JOIN app_apple_ids a2 ON a2.app_id = l2.app_id
                              WHERE l2.app_id <> $1 AND l2.platform = 'apple' AND l2.domain_id = e.domain_id
                                AND l2.service = e.service AND a2.apple_app_id = e.app_id)
            """, appID)
        try execute("""
            DELETE FROM watched_urls w USING app_watched_urls u
            WHERE u.app_id = $1 AND u.platforms <> 'android' AND w.domain_id = u.domain_id AND w.url = u.url
              AND w.expected_app_id IN (SELECT apple_app_id FROM app_apple_ids WHERE app_id = $1)
              AND NOT EXISTS (SELECT 1 FROM app_watched_urls u2 WHERE u2.app_id <> $1 AND u2.domain_id = w.domain_id AND u2.url = w.url)
            """, appID)
    }
}

extension AppStore {
    public func app(id: Int64) throws -> AppRecord? {
        try firstRow(Self.selectApps + " WHERE a.id = $1", id).map(AppRecord.init(row:))
    }

    public func app(name: String) throws -> AppRecord? {
        try firstRow(Self.selectApps + " WHERE a.name = $1", name).map(AppRecord.init(row:))
    }

    /// Every app by name.
    public func apps() throws -> [AppRecord] {
        try rows(Self.selectApps + " ORDER BY a.name").map(AppRecord.init(row:))
    }

    /// The app's links with their domains' state, by domain name, then platform and service.
    public func appLinks(appID: Int64) throws -> [AppLinkRecord] {
        try rows(Self.selectLinks + """
             FROM app_links l JOIN domains d ON d.id = l.domain_id
            WHERE l.app_id = $1 ORDER BY d.display_name, d.wildcard, l.platform, l.service
            """, appID).map(AppLinkRecord.init(row:))
    }

    /// The columns `AppLinkRecord` reads, of `app_links l JOIN domains d`.
    static var selectLinks: SQL {
        """
        SELECT l.domain_id, d.host, d.display_name, d.wildcard, l.platform, l.service, l.developer_mode, l.managed_mode,
               l.declared_as, d.last_check_id, d.last_verdict, d.last_changed_at, d.last_expectations,
               (d.check_requested_at IS NOT NULL OR coalesce(d.lease_until > now(), false)) AS checking
        """
    }

    public func appWatchedURLs(appID: Int64) throws -> [AppWatchedURLRecord] {
        try rows("SELECT url, domain_id, platforms FROM app_watched_urls WHERE app_id = $1 ORDER BY position", appID).map {
            AppWatchedURLRecord(url: try $0.decode("url"), domainID: try $0.decode("domain_id"), platforms: try $0.decode("platforms"))
        }
    }

    /// The names of the apps that claim the domain, for an alert that names the apps it affects.
    public func appNames(domainID: Int64) throws -> [String] {
        try rows(appNamesOfDomain, domainID).map { try $0.decode("name") }
    }

    /// The by-app overview's rows: each app with how many domains it claims and their open alerts.
    /// How its links stand is judged by Monitor's `AppSummary` (each link for this app, not the
    /// domain's own state).
    public func appListings() throws -> [AppListing] {
        try rows("""
            SELECT a.id, a.name, a.android_package,
                   coalesce((SELECT string_agg(apple_app_id, ' ' ORDER BY position) FROM app_apple_ids WHERE app_id = a.id), '') AS apple_ids,
                   (SELECT count(DISTINCT domain_id) FROM app_links WHERE app_id = a.id)::int AS domains,
                   (SELECT count(*) FROM alerts al WHERE al.state = 'open'
                      AND al.domain_id IN (SELECT domain_id FROM app_links WHERE app_id = a.id))::int AS open_alerts
            FROM apps a ORDER BY a.name
            """).map { row in
            let ids: String = try row.decode("apple_ids")
            return AppListing(id: try row.decode("id"), name: try row.decode("name"), appleAppIDs: ids.split(separator: " ").map(String.init),
                              androidPackage: try row.decode("android_package"), domainCount: try row.decode("domains"),
                              openAlerts: try row.decode("open_alerts"))
        }
    }

    static var selectApps: SQL {
        """
        SELECT a.id, a.name, a.android_package, a.created_at,
               coalesce((SELECT string_agg(apple_app_id, ' ' ORDER BY position) FROM app_apple_ids WHERE app_id = a.id), '') AS apple_ids,
               coalesce((SELECT string_agg(fingerprint || ' ' || key_role, ',' ORDER BY fingerprint) FROM app_fingerprints WHERE app_id = a.id), '') AS keys
        FROM apps a
        """
    }
}

extension AppRecord {
    init(row: Row) throws {
        id = try row.decode("id")
        name = try row.decode("name")
        androidPackage = try row.decode("android_package")
        createdAt = try row.decode("created_at")
        let ids: String = try row.decode("apple_ids")
        appleAppIDs = ids.split(separator: " ").map(String.init)
        let keys: String = try row.decode("keys")
        fingerprints = try keys.split(separator: ",").map { pair in
            let parts = pair.split(separator: " ")
            guard parts.count == 2 else { throw DatabaseError.decoding(column: "app_fingerprints", message: "\"\(pair)\" is not a fingerprint and a role") }
            return AppFingerprint(fingerprint: String(parts[0]), role: try SigningKeyRole.decode(sqlText: String(parts[1]), column: "app_fingerprints.key_role"))
        }
    }
}

/// The apps that claim a domain, by name: read by the app pages and by the alert transaction, which
/// names them in the notification.
let appNamesOfDomain: SQL = "SELECT DISTINCT a.name FROM apps a JOIN app_links l ON l.app_id = a.id WHERE l.domain_id = $1 ORDER BY a.name"

extension AlertStore {
    /// The names of the apps that claim the domain; nil when none does.
    func appsClaiming(domainID: Int64) throws -> [String]? {
        let names: [String] = try rows(appNamesOfDomain, domainID).map { try $0.decode("name") }
        return names.isEmpty ? nil : names
    }
}

