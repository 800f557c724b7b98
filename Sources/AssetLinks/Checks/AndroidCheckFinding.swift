import Vocabulary

/// The finding codes of a whole Android check (assetlinks-spec.md §10.1 transport and §10.5 expectations
/// and Google's verdict): they need an HTTP exchange, Google's API or the registered apps, so they are
/// reported by `AndroidCheckEvaluation`, never by the reader. Codes shared with Apple's rule set
/// (`not-https`, `http-status`, …) keep their names; the finding's platform tells them apart.
public enum AndroidCheckFinding {
    // MARK: Transport (§10.1)
    public static let notHTTPS = FindingDefinition("not-https", .error, affects: Versions.all, condition: "no HTTPS answer (the file is fetched over HTTPS only, even when intent filters list http)", source: "A-CFG", producer: "android-check")
    public static let tlsUntrusted = FindingDefinition("tls-untrusted", .error, affects: Versions.all, condition: "the certificate chain is not trusted (expired, wrong host, self-signed, missing intermediate): the list counts as empty", source: "G-CREATE", producer: "android-check")
    public static let redirectNotAllowed = FindingDefinition("redirect-not-allowed", .error, affects: Versions.all, condition: "any 3xx on the file URL (supersedes http-status); the redirect is reported with its Location, never followed", source: "A-CFG, A-TRB, G-API", producer: "android-check")
    public static let httpStatus = FindingDefinition("http-status", .error, affects: Versions.all, condition: "the status is not 200 (info when the host serves no file and no Android app is expected of it)", source: "G-SPEC, G-CREATE", producer: "android-check")
    public static let fetchFailed = FindingDefinition("fetch-failed", .error, affects: Versions.all, condition: "DNS, connect, TLS handshake or timeout failure, or an address the outbound policy refuses", source: "AOSP-SS", producer: "android-check")
    public static let contentTypeNotJSON = FindingDefinition("content-type-not-json", .error, affects: Versions.all, condition: "not served as application/json (parameters allowed), or no Content-Type; warning when Google still links the app", source: "A-CFG, G-API", producer: "android-check")
    public static let fetcherBlocked = FindingDefinition("fetcher-blocked", .error, affects: Versions.all, condition: "GoogleAssociationService or Android's client user agent gets another status or file than a browser", source: "O-CF, O-UA", producer: "android-check")
    public static let trailingDotMismatch = FindingDefinition("trailing-dot-mismatch", .warning, affects: Versions.all, condition: "https://HOST./ (the fully-qualified form) answers with another status or file than https://HOST/", source: "A-TRB", producer: "android-check")
    public static let robotsDisallow = FindingDefinition("robots-disallow", .warning, affects: Versions.googleCopy, condition: "robots.txt (read as Google does: its Googlebot group, else *; longest rule wins, Allow on ties) disallows /.well-known/assetlinks.json for Googlebot or *", source: "C-AFF", producer: "android-check")

    // MARK: Expectations (§10.5)
    public static let handleAllURLsMissing = FindingDefinition("handle-all-urls-missing", .error, affects: Versions.all, condition: "an expected package is named in the file but has no valid handle_all_urls statement", source: "A-CFG", producer: "android-check")
    public static let expectedPackageMissing = FindingDefinition("expected-package-missing", .error, affects: Versions.all, condition: "an expected package is absent from every statement granting it the relation it needs", source: "A-CFG", producer: "android-check")
    public static let expectedFingerprintMissing = FindingDefinition("expected-fingerprint-missing", .error, affects: Versions.all, condition: "the package is granted, but not with every expected fingerprint", source: "A-CFG, A-FAQ", producer: "android-check")
    public static let fingerprintUploadKeyOnly = FindingDefinition("fingerprint-upload-key-only", .error, affects: Versions.all, condition: "only fingerprints marked as upload or debug keys are listed: Play installs (signed with Google's key) fail", source: "A-CFG, O-FAIL", producer: "android-check")
    public static let loginCredsMissing = FindingDefinition("login-creds-missing", .warning, affects: Versions.all, condition: "credential sharing is expected, but the package has no get_login_creds statement", source: "A-CRED", producer: "android-check")
    public static let wildcardFileMissing = FindingDefinition("wildcard-file-missing", .error, affects: Versions.all, condition: "a *. registration: the bare domain, which must serve the file, does not", source: "A-ADD", producer: "android-check")

    // MARK: What the app declares and what a device says (§10.4, §10.5): need the app's manifest or a device
    public static let dynamicRuleOutOfScope = FindingDefinition("dynamic-rule-out-of-scope", .warning, affects: Versions.dynamic, condition: "a dynamic rule's path can match no path the app's manifest claims for the host (the manifest filters first, so the rule never decides)", source: "A-CFG", producer: "scope")
    public static let deviceNotVerified = FindingDefinition("device-not-verified", .warning, affects: "Android 12+ (pm get-app-links)", condition: "pasted `adb shell pm get-app-links` output shows a host of the package in a state outside the verified set (none, denied, legacy_failure, 1024+)", source: "A-VER", producer: "device")

    // MARK: Google's verdict (§6, §10.5)
    public static let googleVerdictError = FindingDefinition("google-verdict-error", .error, affects: Versions.googleCopy, condition: "Google's API answers with errorCode[] (severity per code: INVALID_QUERY and UNSPECIFIED info, MALFORMED_CONTENT a warning while statements remain)", source: "G-API", producer: "android-check")
    public static let googleNotLinked = FindingDefinition("google-not-linked", .error, affects: Versions.googleCopy, condition: "assetlinks:check says linked: false for an expected package and fingerprint", source: "G-API", producer: "android-check")
    public static let googleStale = FindingDefinition("google-stale", .warning, affects: Versions.googleCopy, condition: "Google's statements behave differently from the origin's (after its maxAge plus an hour, when the change time is known)", source: "G-API", producer: "android-check")
    public static let googleUnavailable = FindingDefinition("google-unavailable", .info, affects: Versions.googleCopy, condition: "Google's API could not be asked or gave no readable answer", source: "ours", producer: "android-check")
}

/// Every code `AndroidCheckEvaluation` reports besides the file's own (`AndroidFindingCatalog`),
/// in documentation order (docs/findings.md, "Transport and Google's verdict").
public enum AndroidCheckFindingCatalog {
    public static let all: [FindingDefinition] = [
        AndroidCheckFinding.notHTTPS, AndroidCheckFinding.tlsUntrusted, AndroidCheckFinding.redirectNotAllowed,
        AndroidCheckFinding.httpStatus, AndroidCheckFinding.fetchFailed, AndroidCheckFinding.contentTypeNotJSON,
        AndroidCheckFinding.fetcherBlocked, AndroidCheckFinding.trailingDotMismatch, AndroidCheckFinding.robotsDisallow,
        AndroidCheckFinding.handleAllURLsMissing, AndroidCheckFinding.expectedPackageMissing,
        AndroidCheckFinding.expectedFingerprintMissing, AndroidCheckFinding.fingerprintUploadKeyOnly,
        AndroidCheckFinding.loginCredsMissing, AndroidCheckFinding.wildcardFileMissing,
        AndroidCheckFinding.dynamicRuleOutOfScope, AndroidCheckFinding.deviceNotVerified,
        AndroidCheckFinding.googleVerdictError, AndroidCheckFinding.googleNotLinked, AndroidCheckFinding.googleStale,
        AndroidCheckFinding.googleUnavailable,
    ]
}
