import Vocabulary
import Foundation

/// What a domain is watched as: written by a draft, read back in its record (one declaration for
/// both, read through as if the fields were theirs).
public struct DomainSettings: Sendable, Equatable, RowDecodable {
    public var host: String
    public var displayName: String
    public var wildcard: Bool
    public var intervalSeconds: Int
    public var badgeEnabled: Bool
    public var platforms: WatchedPlatforms
}

/// A domain as the dashboard registers or edits it.
@dynamicMemberLookup
public struct DomainDraft: Sendable, Equatable {
    public var settings: DomainSettings
    /// (service, TEAMID.bundle.id)
    public var appIDs: [AppIDExpectation]
    public var watchedURLs: [WatchedURLExpectation]
    /// Android apps the domain itself must verify (its expectations form); nil: left as stored (the
    /// API, imports and config files do not manage them).
    public var androidApps: [AndroidAppExpectation]?

    public init(host: String, displayName: String, wildcard: Bool, intervalSeconds: Int, badgeEnabled: Bool,
                appIDs: [AppIDExpectation], watchedURLs: [WatchedURLExpectation], platforms: WatchedPlatforms = .both,
                androidApps: [AndroidAppExpectation]? = nil) {
        self.androidApps = androidApps
        settings = DomainSettings(host: host, displayName: displayName, wildcard: wildcard, intervalSeconds: intervalSeconds,
                                  badgeEnabled: badgeEnabled, platforms: platforms)
        self.appIDs = appIDs
        self.watchedURLs = watchedURLs
    }

    public subscript<Value>(dynamicMember field: WritableKeyPath<DomainSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }
}

extension AndroidAppExpectation {
    /// A domain's own app as `expected_android_apps` stores it (login credentials are not stored).
    init(row: Row) throws {
        self.init(packageName: try row.decode("package"), fingerprints: try row.decodeJSON("fingerprints"),
                  uploadKeys: try row.decodeJSON("upload_keys"))
    }
}

public struct AppIDExpectation: Sendable, Hashable {
    public var service: Service
    public var appID: String
    public init(service: Service, appID: String) {
        self.service = service
        self.appID = appID
    }

    /// As `expected_app_ids` stores it (columns `service`, `app_id`).
    init(row: Row) throws {
        self.init(service: try row.decode("service"), appID: try row.decode("app_id"))
    }
}

extension AppIDEntry {
    /// A stored expected app ID written back as typed (the API's read-back, a config export).
    public init(_ stored: AppIDExpectation) {
        self.init(service: stored.service.rawValue, appID: stored.appID)
    }
}

extension WatchedURLEntry {
    /// A stored watched URL written back as typed: "browser" for no app, Android's outcome only when
    /// it was stated apart.
    public init(_ stored: WatchedURLExpectation) {
        self.init(url: stored.url, expect: stored.expectedAppID ?? "browser", android: stored.android?.rawValue)
    }
}

/// A URL that must open `expectedAppID`, or stay in the browser when it is nil; `android`: what it
/// must do on Android when stated apart (nil: derived from Apple's, `AndroidWatchedURLs.expected`).
public struct WatchedURLExpectation: Sendable, Hashable {
    public var url: String
    public var expectedAppID: String?
    public var android: AndroidURLExpectation?
    public init(url: String, expectedAppID: String?, android: AndroidURLExpectation? = nil) {
        self.url = url
        self.expectedAppID = expectedAppID
        self.android = android
    }

    /// As `watched_urls` stores it (columns `url`, `expected_app_id`, `expected_android`).
    init(row: Row) throws {
        self.init(url: try row.decode("url"), expectedAppID: try row.decode("expected_app_id"), android: try row.decode("expected_android"))
    }
}

/// One registered domain with its settings and scheduling state.
@dynamicMemberLookup
public struct DomainRecord: Sendable, RowDecodable {
    public var id: Int64
    /// Read from the same row's columns (`RowDecodable` inside a row type).
    public var settings: DomainSettings
    public var nextCheckAt: Date
    public var checkRequestedAt: Date?
    public var leaseUntil: Date?
    public var lastCheckID: Int64?
    public var lastCheckedAt: Date?
    /// The domain's overall state: pass / warn / fail, the latest file verdict made worse by unmet
    /// expectations (an unmet one is fail); nil before the first check.
    public var lastVerdict: Verdict?
    /// The one line that explains `lastVerdict` (an unmet expectation, else the worst finding) and
    /// the platform it is about, read from its two columns.
    var reasonColumns: ReasonColumns
    public var lastReason: DomainReason? {
        get { reasonColumns.reason }
        set { reasonColumns = ReasonColumns(newValue) }
    }
    /// The expectations measured against the file of the latest check (by that check, or again when
    /// the expectations were edited); nil before the first usable file.
    public var lastExpectations: ExpectationResults?
    public var lastChangedAt: Date?
    public var createdAt: Date
    /// Paused: not checked until resumed (`setPaused`).
    public var paused: Bool

    public subscript<Value>(dynamicMember field: WritableKeyPath<DomainSettings, Value>) -> Value {
        get { settings[keyPath: field] }
        set { settings[keyPath: field] = newValue }
    }

    /// A check was asked for or is running right now.
    public func isChecking(now: Date) -> Bool {
        checkRequestedAt != nil || (leaseUntil.map { $0 > now } ?? false)
    }

    /// The columns of `RowDecodable`: each property's name in snake_case.
    static let columns: SQL = """
        id, host, display_name, wildcard, interval_seconds, badge_enabled, platforms, next_check_at, check_requested_at, lease_until,
        last_check_id, last_checked_at, last_verdict, last_reason, last_reason_platform, last_expectations, last_changed_at, created_at, paused
        """
}

/// A domain's unique key: its ASCII host and whether it is the wildcard `*.host`.
public struct DomainName: Sendable, Hashable {
    public var host: String
    public var wildcard: Bool
    public init(host: String, wildcard: Bool) {
        self.host = host
        self.wildcard = wildcard
    }
}

public enum DomainCreation: Sendable, Equatable {
    case created(id: Int64)
    case alreadyRegistered(id: Int64)
}

// Each change in its own transaction, for any store that can open one (the pooled `Database`).
extension DomainStore where Self: TransactionalStore {
    /// Registers a domain with its expectations in one transaction, unless it is registered already.
    /// The first check is due at `firstCheckAt` (nil: at once); with `requestFirstCheck` it is also
    /// requested, so the scheduler takes it at once, ahead of routine checks. With `queueFirstCheck`
    /// (a bulk import, which must not push ahead of routine checks) it joins the first-check queue:
    /// taken, oldest first, with the room the requested and due domains leave, and as due at
    /// `firstCheckAt` at the latest.
    public func createDomain(_ draft: DomainDraft, requestFirstCheck: Bool = true, queueFirstCheck: Bool = false,
                             firstCheckAt: Date? = nil) throws -> DomainCreation {
        try withTransaction { c in
            try c.insertDomain(draft, requestFirstCheck: requestFirstCheck, queueFirstCheck: queueFirstCheck, firstCheckAt: firstCheckAt)
        }
    }

    /// Changes a domain's interval, badge, platforms and expectations (the host never changes: that is another domain).
    @discardableResult
    public func updateDomain(id: Int64, _ draft: DomainDraft) throws -> Bool {
        try withTransaction { c in try c.changeDomain(id: id, draft) }
    }
}

extension Connection {
    /// `createDomain` inside a transaction the caller holds (a config apply makes many changes in one).
    public func insertDomain(_ draft: DomainDraft, requestFirstCheck: Bool, queueFirstCheck: Bool = false,
                             firstCheckAt: Date? = nil) throws -> DomainCreation {
        guard let id: Int64 = try firstRow("""
            INSERT INTO domains (host, display_name, wildcard, interval_seconds, badge_enabled, next_check_at, check_requested_at, platforms,
                                 first_check_queued_at)
            VALUES ($1, $2, $3, $4, $5, COALESCE($8::timestamptz, now()), CASE WHEN $6 THEN now() END, $7, CASE WHEN $9 THEN now() END)
            ON CONFLICT (host, wildcard) DO NOTHING RETURNING id
            """, draft.host, draft.displayName, draft.wildcard, draft.intervalSeconds, draft.badgeEnabled,
            requestFirstCheck, draft.platforms, firstCheckAt, queueFirstCheck)?.decode("id") else {
            let existing: Int64 = try value("SELECT id FROM domains WHERE host = $1 AND wildcard = $2", draft.host, draft.wildcard)
            return .alreadyRegistered(id: existing)
        }
        try replaceExpectations(domainID: id, appIDs: draft.appIDs, watchedURLs: draft.watchedURLs)
        if let apps = draft.androidApps { try replaceAndroidExpectations(domainID: id, apps) }
        return .created(id: id)
    }

    /// `updateDomain` inside a transaction the caller holds.
    public func changeDomain(id: Int64, _ draft: DomainDraft) throws -> Bool {
        guard try execute("""
            UPDATE domains SET interval_seconds = $2::integer, badge_enabled = $3, platforms = $4, updated_at = now(),
              next_check_at = LEAST(next_check_at, now() + make_interval(secs => $2::integer)) WHERE id = $1
            """, id, draft.intervalSeconds, draft.badgeEnabled, draft.platforms) == 1 else { return false }
        try replaceExpectations(domainID: id, appIDs: draft.appIDs, watchedURLs: draft.watchedURLs)
        if let apps = draft.androidApps { try replaceAndroidExpectations(domainID: id, apps) }
        return true
    }
}

extension DomainStore {
    func replaceExpectations(domainID: Int64, appIDs: [AppIDExpectation], watchedURLs: [WatchedURLExpectation]) throws {
        try execute("DELETE FROM expected_app_ids WHERE domain_id = $1", domainID)
        try execute("DELETE FROM watched_urls WHERE domain_id = $1", domainID)
        for a in Set(appIDs) {
            try execute("INSERT INTO expected_app_ids (domain_id, service, app_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                        domainID, a.service, a.appID)
        }
        for w in watchedURLs {
            try execute("""
                INSERT INTO watched_urls (domain_id, url, expected_outcome, expected_app_id, expected_android) VALUES ($1, $2, $3, $4, $5)
                ON CONFLICT (domain_id, url) DO NOTHING
                """, domainID, w.url, w.expectedAppID == nil ? "stays-in-browser" : "opens-app", w.expectedAppID, w.android)
        }
    }

    func replaceAndroidExpectations(domainID: Int64, _ apps: [AndroidAppExpectation]) throws {
        try execute("DELETE FROM expected_android_apps WHERE domain_id = $1", domainID)
        for (position, app) in apps.enumerated() {
            try execute("INSERT INTO expected_android_apps (domain_id, package, fingerprints, upload_keys, position) "
                        + "VALUES ($1, $2, $3::jsonb, $5::jsonb, $4) ON CONFLICT (domain_id, package) DO NOTHING",
                        domainID, app.packageName, try StoredJSON.encode(app.fingerprints.sorted()), position,
                        try StoredJSON.encode(app.uploadKeys.sorted()))
        }
    }

    /// The Android apps the domain itself must verify (not the apps linked to it), in the form's order.
    public func androidAppExpectations(domainID: Int64) throws -> [AndroidAppExpectation] {
        try rows("SELECT package, fingerprints::text, upload_keys::text FROM expected_android_apps WHERE domain_id = $1 ORDER BY position",
                 domainID).map(AndroidAppExpectation.init(row:))
    }

    /// Every domain's own Android apps, by domain, in each form's order: one query for a config
    /// apply or export, however many domains.
    public func androidAppExpectationsByDomain() throws -> [Int64: [AndroidAppExpectation]] {
        var byDomain: [Int64: [AndroidAppExpectation]] = [:]
        for row in try rows("SELECT domain_id, package, fingerprints::text, upload_keys::text FROM expected_android_apps ORDER BY domain_id, position") {
            byDomain[try row.decode("domain_id"), default: []].append(try AndroidAppExpectation(row: row))
        }
        return byDomain
    }

    public func domain(id: Int64) throws -> DomainRecord? {
        try firstRow("SELECT " + DomainRecord.columns + " FROM domains WHERE id = $1", id).map(DomainRecord.init(row:))
    }

    /// Every domain, by host (wildcards after the plain name): what a config apply compares with.
    public func allDomains() throws -> [DomainRecord] {
        try rows("SELECT " + DomainRecord.columns + " FROM domains ORDER BY host, wildcard").map(DomainRecord.init(row:))
    }

    public func domain(host: String) throws -> DomainRecord? {
        try firstRow("SELECT " + DomainRecord.columns + " FROM domains WHERE host = $1 ORDER BY wildcard LIMIT 1", host)
            .map(DomainRecord.init(row:))
    }

    /// The id of the domain registered under `host` (ASCII) with this wildcard flag, if any.
    public func domainID(host: String, wildcard: Bool) throws -> Int64? {
        try firstRow("SELECT id FROM domains WHERE host = $1 AND wildcard = $2", host, wildcard)?.decode("id")
    }

    /// Which of these (ASCII host, wildcard) names are registered, in one query (an import's preview).
    public func registeredNames(hosts: [String]) throws -> Set<DomainName> {
        Set(try rows("SELECT host, wildcard FROM domains WHERE host = ANY($1::text[])", SQLArray(hosts))
            .map { DomainName(host: try $0.decode("host"), wildcard: try $0.decode("wildcard")) })
    }

    public func appIDExpectations(domainID: Int64) throws -> [AppIDExpectation] {
        try rows("SELECT service, app_id FROM expected_app_ids WHERE domain_id = $1 ORDER BY created_at, service, app_id", domainID)
            .map(AppIDExpectation.init(row:))
    }

    public func watchedURLs(domainID: Int64) throws -> [WatchedURLExpectation] {
        try rows("SELECT url, expected_app_id, expected_android FROM watched_urls WHERE domain_id = $1 ORDER BY id", domainID)
            .map(WatchedURLExpectation.init(row:))
    }

    @discardableResult
    public func deleteDomain(id: Int64) throws -> Bool {
        try execute("DELETE FROM domains WHERE id = $1", id) == 1
    }

    /// "Check now": the scheduler takes requested domains first and clears the flag when it leases one.
    /// A paused domain is not flagged (it would show as being checked, and nothing checks it); true
    /// when the domain exists all the same.
    @discardableResult
    public func requestCheck(domainID: Int64) throws -> Bool {
        try execute("UPDATE domains SET check_requested_at = CASE WHEN paused THEN NULL ELSE COALESCE(check_requested_at, now()) END WHERE id = $1",
                    domainID) == 1
    }

    /// "Check now" for every domain an app claims (for Apple or Android, any service), in one
    /// statement however many; returns how many domains that is (0: no such app, or it claims none).
    public func requestCheck(appID: Int64) throws -> Int {
        try execute("""
            UPDATE domains SET check_requested_at = COALESCE(check_requested_at, now())
            WHERE id IN (SELECT domain_id FROM app_links WHERE app_id = $1) AND NOT paused
            """, appID)
    }

    /// Pauses or resumes a domain; false when there is no such domain. A paused domain is never leased
    /// (`DomainLeases` skips it), and pausing ends the lease of a check that is running, so its result
    /// finds the lease gone and is dropped (`record` answers `.superseded`): no check is written and no
    /// alert opens or resolves while the domain is paused; an open alert stays as it is. A "check now"
    /// or a first-check queue place is dropped too, so a paused domain never shows as being checked. Resuming makes
    /// the domain due at once, so its next check does not wait out the rest of an interval.
    @discardableResult
    public func setPaused(domainID: Int64, _ paused: Bool) throws -> Bool {
        try execute("""
            UPDATE domains SET paused = $2::boolean,
              lease_until = CASE WHEN $2 THEN NULL ELSE lease_until END,
              leased_by = CASE WHEN $2 THEN NULL ELSE leased_by END,
              lease_attempt_key = CASE WHEN $2 THEN NULL ELSE lease_attempt_key END,
              check_requested_at = CASE WHEN $2 THEN NULL ELSE check_requested_at END,
              first_check_queued_at = CASE WHEN $2 THEN NULL ELSE first_check_queued_at END,
              next_check_at = CASE WHEN $2 OR NOT paused THEN next_check_at ELSE LEAST(next_check_at, now()) END
            WHERE id = $1
            """, domainID, paused) == 1
    }
}
