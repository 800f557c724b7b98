import Foundation

/// One check's Android side as stored (`checks.android`) and remembered as the previous check: the
/// assetlinks.json verdict and findings, each expected app's identity as the file grants it, and
/// Google's Digital Asset Links verdict. Written by the pipeline from the AssetLinks core's report;
/// read by the alert rules, the pages and the API as this one type.
///
/// Coded by the synthesized `Codable`: every key a stored row lacks must be optional here. Rows stored
/// before `watchedURLs` existed were given `[]` by migration 0037, so a new non-optional field needs a
/// migration of its own (or an optional type).
public struct AndroidResult: Hashable, Sendable, Codable {
    /// The file's verdict (its own findings, transport and expectations; Google's at their tier).
    public var verdict: Verdict
    /// The origin serves a statement list (200, trusted TLS, readable).
    public var serves: Bool
    /// sha256 (hex) of the file the origin served with 200; nil when it served none.
    public var versionSHA256: String?
    /// Since when the origin has served this version without interruption (Google's copy may lag).
    public var versionSince: Date?
    public var findings: [Finding]
    /// One per expected app, in the registration's order.
    public var identities: [AndroidIdentityResult]
    /// Google's answer; nil when the API was not asked.
    public var google: GoogleVerdict?
    /// When Android was last fetched. A site that serves no file and expects no app is probed only
    /// now and then; its checks in between carry this result over.
    public var probedAt: Date?
    /// The URLs watched on Android and what each did in this check, in the expectations' order.
    public var watchedURLs: [AndroidWatchedURLResult]
    /// What the origin answered Google's fetcher (status, or failure kind; the file's digest with a
    /// 200), so the next check can tell whether it moved; nil in results stored before it was kept.
    public var originAnswer: String?
    /// What the latest statement list the origin served grants apps: this check's, or carried over
    /// checks that served none (so a file that breaks and comes back is compared with the one before).
    /// nil before any was served, and in results stored before it was kept.
    public var servedGrants: AndroidFileGrants?
    /// What the statement list served before `servedGrants` granted: the regression rules of spec §11
    /// (a fingerprint, relation or package removed, a statement newly dropped) compare the two, for
    /// as long as the origin serves that file. nil for the first file seen.
    public var previousGrants: AndroidFileGrants?
    /// The strong ETag the origin sent with its file (a clean 200), for the next check's conditional fetch.
    public var originETag: String?

    public init(verdict: Verdict, serves: Bool, versionSHA256: String? = nil, versionSince: Date? = nil, findings: [Finding] = [],
                identities: [AndroidIdentityResult] = [], google: GoogleVerdict? = nil, probedAt: Date? = nil,
                watchedURLs: [AndroidWatchedURLResult] = []) {
        self.verdict = verdict
        self.serves = serves
        self.versionSHA256 = versionSHA256
        self.versionSince = versionSince
        self.findings = findings
        self.identities = identities
        self.google = google
        self.probedAt = probedAt
        self.watchedURLs = watchedURLs
    }

    /// Android counts for the domain when the site serves a file or an Android app is expected of it:
    /// a site with neither is not failing for Android (issue #13).
    public var isWatched: Bool { serves || !identities.isEmpty }

    /// Whether Android counts for a domain with this platform setting: watched for Android only (its
    /// owner chose Android, so it counts whatever the site serves), or for both where `isWatched`.
    /// `DomainVerdict` and the alert rules ask this; migration 0061's `aasa_android_state` is its SQL.
    public func counts(for platforms: WatchedPlatforms) -> Bool {
        platforms == .android || (platforms.watches(.android) && isWatched)
    }
}

/// How a URL watched on Android behaved in one check (assetlinks-spec.md §5): on Android 15+ the app's
/// dynamic rules decide; Android 14 and lower (or a device without Google services) ignore them and
/// open every path of a verified host that the manifest claims.
public struct AndroidWatchedURLResult: Hashable, Sendable, Codable {
    public var url: String
    /// What the URL must do on Android 15+ (`opensApp` names a package).
    public var expected: URLOutcome
    /// What it does on Android 15+.
    public var actual: URLOutcome
    /// What it does on Android 14 and lower.
    public var beforeDynamicRules: URLOutcome
    /// The matcher's explanation of `actual`: the deciding rule, or why no rule applies.
    public var reason: String

    public init(url: String, expected: URLOutcome, actual: URLOutcome, beforeDynamicRules: URLOutcome, reason: String) {
        self.url = url
        self.expected = expected
        self.actual = actual
        self.beforeDynamicRules = beforeDynamicRules
        self.reason = reason
    }

    public var meetsExpectation: Bool { expected == actual }
}

/// An expected Android app measured against one file: what the file grants its package.
public struct AndroidIdentityResult: Hashable, Sendable, Codable {
    public var packageName: String
    /// The fingerprints the operator expects (upper-case, colon-separated), and which of them are upload keys.
    public var expectedFingerprints: [String]
    public var uploadKeys: [String]
    /// The package appears in a valid android_app statement at all.
    public var named: Bool
    /// The expected fingerprints some statement grants `handle_all_urls` to.
    public var grantedFingerprints: [String]
    /// Some statement grants the package `handle_all_urls`, with whatever key: true while only keys
    /// not expected here are granted it, so "no longer grants handle_all_urls" is never said of a file
    /// that grants it with another key. nil in results stored before it was kept (issue #29).
    public var grantsHandleAllURLs: Bool?

    public init(packageName: String, expectedFingerprints: [String], uploadKeys: [String] = [], named: Bool,
                grantedFingerprints: [String], grantsHandleAllURLs: Bool? = nil) {
        self.packageName = packageName
        self.expectedFingerprints = expectedFingerprints
        self.uploadKeys = uploadKeys
        self.named = named
        self.grantedFingerprints = grantedFingerprints
        self.grantsHandleAllURLs = grantsHandleAllURLs
    }

    /// Some statement grants the package `handle_all_urls` with an expected key (false: none does,
    /// though the package may be named for another relation or granted it with other keys only).
    public var handleAllURLs: Bool { !grantedFingerprints.isEmpty }

    /// The file grants the package `handle_all_urls`, but with none of the keys expected here.
    public var grantedOnlyToOtherKeys: Bool { !handleAllURLs && grantsHandleAllURLs == true }
    public var missingFingerprints: [String] { expectedFingerprints.filter { !grantedFingerprints.contains($0) } }
}

/// Google's Digital Asset Links API on the site, as one check saw it.
public struct GoogleVerdict: Hashable, Sendable, Codable {
    /// `errorCode[]` of statements:list and of every assetlinks:check, once each.
    public var errorCodes: [String]
    public var maxAgeSeconds: Double?
    public var debugString: String?
    public var statementCount: Int
    /// "package fingerprint" of every expected identity assetlinks:check says is not linked.
    public var notLinked: [String]
    /// Google's statements behave differently from the origin's beyond its maxAge plus the grace
    /// period (the `google-stale` finding); false within it.
    public var staleBeyondGrace: Bool
    /// The API could not be asked or gave no readable answer.
    public var unavailable: String?
    /// Google's statements behave like the origin's (within the grace or not); nil when not compared
    /// (and in verdicts stored before it was kept). While false, every check asks Google again.
    public var matchesOrigin: Bool?

    public init(errorCodes: [String] = [], maxAgeSeconds: Double? = nil, debugString: String? = nil, statementCount: Int = 0,
                notLinked: [String] = [], staleBeyondGrace: Bool = false, unavailable: String? = nil) {
        self.errorCodes = errorCodes
        self.maxAgeSeconds = maxAgeSeconds
        self.debugString = debugString
        self.statementCount = statementCount
        self.notLinked = notLinked
        self.staleBeyondGrace = staleBeyondGrace
        self.unavailable = unavailable
    }
}

/// One thing a statement list grants an app: a relation, for a package signed with a key.
public struct AndroidGrant: Hashable, Sendable, Codable, Comparable {
    public var packageName: String
    public var relation: String
    /// Upper-case, colon-separated, as the file lists it.
    public var fingerprint: String

    public init(packageName: String, relation: String, fingerprint: String) {
        self.packageName = packageName
        self.relation = relation
        self.fingerprint = fingerprint
    }

    public static func < (a: Self, b: Self) -> Bool {
        (a.packageName, a.relation, a.fingerprint) < (b.packageName, b.relation, b.fingerprint)
    }
}

/// What one served assetlinks.json grants apps (its statements and its includes'), and which of its
/// own elements Google drops as invalid: kept with the check so the next file can be compared with it.
public struct AndroidFileGrants: Hashable, Sendable, Codable {
    /// sha256 (hex) of the origin's file.
    public var versionSHA256: String
    /// Every (package, relation, fingerprint) an android_app statement grants, sorted, each once.
    public var grants: [AndroidGrant]
    /// Positions in the origin's array of the elements dropped as invalid (a statement Google ignores).
    public var droppedStatements: [Int]

    public init(versionSHA256: String, grants: [AndroidGrant], droppedStatements: [Int] = []) {
        self.versionSHA256 = versionSHA256
        self.grants = Array(Set(grants)).sorted()
        self.droppedStatements = droppedStatements
    }

    /// The packages granted anything.
    public var packages: Set<String> { Set(grants.map(\.packageName)) }
}
