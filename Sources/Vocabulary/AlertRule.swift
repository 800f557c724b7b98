/// The conditions the monitor alerts on. Raw values are stored (`alerts.rule`, `alert_streaks.rule`)
/// and sent to receivers: keep them.
public enum AlertRule: String, Hashable, Sendable, Codable, CaseIterable, Comparable {
    case originUnreachable = "origin-unreachable"
    case originInvalid = "origin-invalid"
    case appIDMissing = "app-id-missing"
    case detailsEmpty = "details-empty"
    case watchedURLChanged = "watched-url-changed"
    case certificateExpiring = "certificate-expiring"
    case certificateUntrusted = "certificate-untrusted"
    case cdnFailure = "cdn-failure"
    case cdnStale = "cdn-stale"
    /// Android's assetlinks.json (`AndroidAlertRules`).
    case androidFileInvalid = "android-file-invalid"
    case androidIdentityMissing = "android-identity-missing"
    case androidHandleAllURLsDropped = "android-handle-all-urls-dropped"
    case androidDynamicRulesInvalid = "android-dynamic-rules-invalid"
    /// A URL watched on Android does not do what it must on Android 15+ (its dynamic rules changed).
    case androidWatchedURLFlipped = "android-watched-url-flipped"
    /// Spec §11's removals, measured against the file served before (`AndroidResult.previousGrants`):
    /// a package that had handle_all_urls or get_login_creds has neither, a relation (handle_all_urls,
    /// get_login_creds, use_as_origin) dropped for a package, a key no longer listed for a package
    /// (one not registered here: a registered key is `android-identity-missing`'s, at the critical
    /// tier), statements newly dropped as invalid.
    case androidPackageRemoved = "android-package-removed"
    case androidRelationRemoved = "android-relation-removed"
    case androidFingerprintRemoved = "android-fingerprint-removed"
    case androidStatementDropped = "android-statement-dropped"
    /// Google's Digital Asset Links API disagrees with the origin or reports an error: Android's CDN tier.
    case googleVerdict = "google-verdict"
    /// Informational: not a condition that opens and resolves, a notice sent once per new file.
    case newVersion = "new-version"

    public var severity: AlertSeverity {
        switch self {
        // Spec §11: a removed key of an app not registered here is a warning (it may be intended).
        case .cdnFailure, .cdnStale, .googleVerdict, .androidFingerprintRemoved: .warning
        case .newVersion: .info
        default: .critical
        }
    }

    /// The platform whose file the rule judges; nil for the host's own (its certificate) and for notices.
    /// A rule of a platform the domain is not watched for is withdrawn: its open alerts close.
    public var platform: Platform? {
        switch self {
        case .originUnreachable, .originInvalid, .appIDMissing, .detailsEmpty, .watchedURLChanged, .cdnFailure, .cdnStale: .apple
        case .androidFileInvalid, .androidIdentityMissing, .androidHandleAllURLsDropped, .androidDynamicRulesInvalid,
             .androidWatchedURLFlipped, .androidPackageRemoved, .androidRelationRemoved, .androidFingerprintRemoved,
             .androidStatementDropped, .googleVerdict: .android
        case .certificateExpiring, .certificateUntrusted, .newVersion: nil
        }
    }

    public static func < (lhs: AlertRule, rhs: AlertRule) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One alert's identity within a domain: the rule and what it is about (an app ID, a URL…;
/// empty when the rule has one subject per domain).
public struct AlertKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var rule: AlertRule
    public var subject: String

    public init(rule: AlertRule, subject: String = "") {
        self.rule = rule
        self.subject = subject
    }

    public var description: String { subject.isEmpty ? rule.rawValue : "\(rule.rawValue) \(subject)" }

    public static func < (lhs: AlertKey, rhs: AlertKey) -> Bool {
        (lhs.rule, lhs.subject) < (rhs.rule, rhs.subject)
    }
}
