import Vocabulary
/// A domain's latest stored check — the file's verdict, the findings, which files it saw: what the domain's
/// verdict (`DomainVerdict`, Monitor) is re-measured from when its expectations change between checks.
public struct LatestCheck: Sendable {
    public var checkID: Int64
    /// pass / warn / fail: the check's file verdict.
    public var fileVerdict: Verdict
    public var findings: [Finding]
    /// The file the origin served (the one the expectations are measured against); nil when none.
    public var appleVersion: VersionKey?
    /// Android's side of the check and the assetlinks.json it measured (nil: not checked / none served).
    public var android: AndroidResult?
    public var androidVersion: VersionKey?
    /// The domain's host (ASCII; a `*.` registration's is the bare domain, whose file Android reads).
    public var host: String
    /// What the domain is watched for now (the check may predate a change of the setting).
    public var platforms: WatchedPlatforms
    /// The check fetched Apple's file (false: the domain was watched for Android only then).
    public var checkedApple: Bool
}

extension DomainStore {
    /// The domain's latest stored check, nil before the first one. Locks the domain's row when
    /// called in a transaction, so a check being recorded at the same time waits (or goes first).
    public func latestCheck(domainID: Int64) throws -> LatestCheck? {
        guard let row = try firstRow("SELECT c.id, c.verdict, c.findings, v.sha256 AS apple_sha256, c.android, a.sha256 AS android_sha256, "
            + "d.host, d.platforms, " + AndroidResult.sqlCheckedApple + """
             AS checked_apple FROM domains d
            JOIN checks c ON c.id = d.last_check_id
            LEFT JOIN association_versions v ON v.id = c.origin_version_id
            LEFT JOIN association_versions a ON a.id = c.android_version_id
            WHERE d.id = $1 AND c.verdict IS NOT NULL
            FOR UPDATE OF d
            """, domainID) else { return nil }
        return LatestCheck(checkID: try row.decode("id"), fileVerdict: try row.decode("verdict"),
                                findings: try row.decodeJSON("findings"),
                                appleVersion: try row.decode("apple_sha256", as: String?.self).map { VersionKey(.apple, sha256: $0) },
                                android: try row.decode("android"),
                                androidVersion: try row.decode("android_sha256", as: String?.self).map { VersionKey(.android, sha256: $0) },
                                host: try row.decode("host"), platforms: try row.decode("platforms"),
                                checkedApple: try row.decode("checked_apple"))
    }

    /// Each platform's state, as the overview's columns, `status` and the badge's `?platform=` show it
    /// (`sqlPlatformStates`): nil where the platform is not watched, does not count for the domain (no
    /// assetlinks.json, no Android app expected) or was not checked yet.
    public func platformVerdicts(domainID: Int64) throws -> (apple: Verdict?, android: Verdict?) {
        guard let row = try firstRow("SELECT " + Self.sqlPlatformStates + " FROM domains d WHERE d.id = $1", domainID)
        else { return (nil, nil) }
        return (try row.decode("apple_verdict"), try row.decode("android_verdict"))
    }

    /// How many alerts of the domain are open: what the overview's row (`sqlPageColumns`) counts.
    public func openAlertCount(domainID: Int64) throws -> Int {
        try value("SELECT count(*)::int FROM alerts a WHERE a.domain_id = $1 AND a.state = 'open'", domainID)
    }

    /// The severity and summary of each alert open on the domain: what its reason weighs
    /// (`DomainVerdict.lead(with:)`) when it is re-measured between checks.
    public func openAlertSummaries(domainID: Int64) throws -> [(severity: AlertSeverity, summary: String)] {
        try rows("SELECT a.severity, a.summary FROM alerts a WHERE a.domain_id = $1 AND a.state = 'open' ORDER BY a.id", domainID).compactMap { row in
            // A severity this build does not know (a newer one wrote it) is left out rather than guessed.
            guard let severity = AlertSeverity(rawValue: try row.decode("severity")) else { return nil }
            return (severity, try row.decode("summary"))
        }
    }

    /// Sets the domain's overall state, reason, each platform's state and the measured expectations
    /// (nil: no usable file), only while `checkID` is still its latest check.
    @discardableResult
    public func setDomainState(domainID: Int64, verdict: Verdict, reason: DomainReason?, platforms states: PlatformStates = PlatformStates(),
                               expectations: ExpectationResults?, basedOnCheck checkID: Int64) throws -> Bool {
        try execute("""
            UPDATE domains SET last_verdict = $2, last_reason = $3, last_expectations = $5::jsonb,
              last_apple_state = $6, last_android_state = $7, last_reason_platform = $8
            WHERE id = $1 AND last_check_id = $4 AND (last_verdict IS DISTINCT FROM $2 OR last_reason IS DISTINCT FROM $3
              OR last_expectations IS DISTINCT FROM $5::jsonb OR last_apple_state IS DISTINCT FROM $6
              OR last_android_state IS DISTINCT FROM $7 OR last_reason_platform IS DISTINCT FROM $8)
            """, domainID, verdict, reason?.text, checkID, expectations, states.apple, states.android, reason?.platform) == 1
    }

    /// Clears the domain's state (verdict, reason, measured expectations, each platform's state) while
    /// `checkID` is still its latest check: that check measured none of the platforms the domain is
    /// watched for now, so it stands as a newly registered domain does, "never checked" ("checking"
    /// while a check is requested), until its next check. 0062's constraint ties a stored verdict to
    /// the states; with no verdict there is nothing to tie.
    @discardableResult
    public func clearDomainState(domainID: Int64, basedOnCheck checkID: Int64) throws -> Bool {
        try execute("""
            UPDATE domains SET last_verdict = NULL, last_reason = NULL, last_reason_platform = NULL, last_expectations = NULL,
              last_apple_state = NULL, last_android_state = NULL
            WHERE id = $1 AND last_check_id = $2 AND (last_verdict IS NOT NULL OR last_reason IS NOT NULL
              OR last_expectations IS NOT NULL OR last_apple_state IS NOT NULL OR last_android_state IS NOT NULL)
            """, domainID, checkID) == 1
    }
}

/// Each platform's own state as `DomainVerdict` (Monitor) measures it: the platform's file verdict made
/// worse by its unmet expectations; nil where the platform does not count. Stored on the domain row.
public struct PlatformStates: Sendable, Hashable {
    public var apple: Verdict?
    public var android: Verdict?
    public init(apple: Verdict? = nil, android: Verdict? = nil) {
        self.apple = apple
        self.android = android
    }
}
