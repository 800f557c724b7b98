import Vocabulary
import Foundation

/// One line of `aasa-monitor status`: a domain's state, last check, current file and open alerts.
public struct DomainStatus: Hashable, Sendable {
    public var host: String
    /// The domain's verdict (the file's, made worse by unmet expectations) as the pages show it.
    public var state: DomainState
    public var lastCheck: Date?
    /// sha256 (hex) of the file the origin serves now: the last changed check's, which unchanged
    /// repeats share.
    public var version: String?
    /// Open alerts as `rule` or `rule subject`, e.g. `app-id-missing applinks ABCDE12345.app`.
    public var openAlerts: [String]
    /// The one line that explains the state (an unmet expectation, else the worst finding) and its platform.
    public var reason: DomainReason?
    /// What the domain is watched for, and each platform's state (its file's verdict made worse by its
    /// unmet expectations, as the overview's columns and the API's `apple_state` / `android_state`); nil
    /// where the platform is not watched, does not count (no assetlinks.json, no Android app expected)
    /// or was not checked yet. `state` is the worse of the two.
    public var platforms = WatchedPlatforms.both
    public var apple: DomainState?
    public var android: DomainState?
    /// Not checked until resumed: its state is the last check's, kept as it was.
    public var paused = false

    /// Built from a row (`domainStatuses`), or from the API's answer (`status --server`), which
    /// carries these same fields.
    public init(host: String, state: DomainState, lastCheck: Date? = nil, version: String? = nil, openAlerts: [String], reason: DomainReason? = nil,
                platforms: WatchedPlatforms = .both, apple: DomainState? = nil, android: DomainState? = nil, paused: Bool = false) {
        (self.host, self.state, self.lastCheck, self.version, self.openAlerts, self.reason) = (host, state, lastCheck, version, openAlerts, reason)
        (self.platforms, self.apple, self.android, self.paused) = (platforms, apple, android, paused)
    }
}

extension DomainStore {
    public func domainStatuses() throws -> [DomainStatus] {
        try rows(Self.statuses).map { row in
            let alerts: String? = try row.decode("open_alerts")
            return DomainStatus(
                host: try row.decode("host"), state: DomainState(verdict: try row.decode("last_verdict")),
                lastCheck: try row.decode("last_checked_at"), version: try row.decode("sha256"),
                openAlerts: alerts.map { $0.split(separator: "\n").map(String.init) } ?? [], reason: try row.decodeReason(),
                platforms: try row.decode("platforms"),
                apple: try row.decode("apple_verdict", as: Verdict?.self).map { DomainState(verdict: $0) },
                android: try row.decode("android_verdict", as: Verdict?.self).map { DomainState(verdict: $0) },
                paused: try row.decode("paused"))
        }
    }

    static var statuses: SQL {
        "SELECT " + sqlPlatformStates + ", " + """
        CASE WHEN d.wildcard THEN '*.' || d.host ELSE d.host END AS host, d.last_checked_at,
               d.last_verdict, d.last_reason, d.last_reason_platform, v.sha256, d.platforms, d.paused,
               (SELECT string_agg(CASE WHEN a.subject = '' THEN a.rule ELSE a.rule || ' ' || a.subject END,
                                  E'\\n' ORDER BY a.rule, a.subject)
                FROM alerts a WHERE a.domain_id = d.id AND a.state = 'open') AS open_alerts
        FROM domains d
        LEFT JOIN checks c ON c.id = d.last_check_id
        LEFT JOIN association_versions v ON v.id = c.origin_version_id
        ORDER BY d.host, d.wildcard
        """
    }
}
