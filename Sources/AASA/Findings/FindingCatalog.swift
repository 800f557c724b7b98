import LocatedJSON
import Vocabulary

// Affects strings shared by several codes (aasa-spec.md §14).
private enum OS {
    static let all = "All OS versions"
    static let components = "iOS 13+, iPadOS 13+, macOS 10.15+, tvOS 13+, watchOS 7+"
    static let caseSensitive = "iOS 13.5+, macOS 10.15.5+, watchOS 7+"
    static let substitution = "iOS 13.5+, macOS 10.15.6+, tvOS 13.4+, watchOS 7+"
    static let defaults = "iOS 14+, macOS 11+, tvOS 14+, watchOS 7+"
    static let legacy = "iOS 12 and earlier, tvOS 12 and earlier"
    static let sizeLimit = "iOS 9.3.1+ (and, inferred, every later system)"
    static let cdn = "iOS 14+, macOS 11+ (devices fetch through Apple's CDN)"
    static let deprecated2019 = "All current systems (deprecated since iOS 13 / macOS 10.15; removal announced)"
}

extension FindingDefinition {
    // MARK: Transport and CDN (§15.1) — TransportValidator unless noted
    public static let notHTTPS = FindingDefinition("not-https", .error, affects: OS.all, condition: "the file was fetched over plain HTTP, or HTTPS is unavailable", source: "S19, D-SAD", producer: "transport")
    public static let tlsUntrusted = FindingDefinition("tls-untrusted", .error, affects: OS.all, condition: "the certificate is not trusted by system roots (expired, self-signed, wrong host, missing intermediate)", source: "S19, D-SAD", producer: "transport")
    public static let redirectNotAllowed = FindingDefinition("redirect-not-allowed", .error, affects: OS.all, condition: "a 3xx answer on the file URL through which devices get no file (supersedes http-status): Apple's CDN serves no copy that followed it, or, on the direct route (?mode=), it leads to http: or past five hops", source: "D-SAD, D-TN, F-67882", producer: "transport")
    public static let redirectFollowed = FindingDefinition("redirect-followed", .warning, affects: OS.all, condition: "a 3xx answer on the file URL that devices currently follow: Apple's CDN serves the file and its Apple-From lists both URLs, or, on the direct route (?mode=), an https redirect the device follows; Apple documents redirects as unsupported", source: "D-SAD, D-TN; OBS (Apple's CDN, iOS 26.1 swcd)", producer: "transport, check-evaluation")
    public static let httpStatus = FindingDefinition("http-status", .error, affects: OS.all, condition: "the final status is not 200", source: "D-TN", producer: "transport")
    public static let contentTypeNotJSON = FindingDefinition("content-type-not-json", .warning, affects: OS.all, condition: "an unsigned body not served as application/json (a signed one not as application/pkcs7-mime), or no Content-Type", source: "S16, X-BLZ", producer: "transport")
    public static let sizeOver128k = FindingDefinition("size-over-128k", .error, affects: OS.sizeLimit, condition: "the decoded body is larger than 131,072 bytes, where the device's downloader (swcd) stops; up to 131,072 bytes works (the validator uses the byte count it was given)", source: "S16, X-BR, iOS 26.1 swcd", producer: "transport, validator")
    public static let cdnFailure = FindingDefinition("cdn-failure", .error, affects: OS.cdn, condition: "Apple's CDN answers non-200 or sends Apple-Failure-Reason", source: "F-821908, X-403", producer: "transport")
    public static let fetchFailed = FindingDefinition("fetch-failed", .error, affects: OS.all, condition: "no HTTP response arrived (DNS, refused connection, timeout, reset, refused address)", source: "ours (D-TN)", producer: "transport")
    public static let addressRefused = FindingDefinition("address-refused", .error, affects: OS.all, condition: "the host resolves to a loopback, private, link-local or otherwise non-public address, which Apple's CDN refuses too (SWCERR00202)", source: "F-821908, ours", producer: "transport")
    public static let userAgentDiffers = FindingDefinition("user-agent-differs", .warning, affects: OS.all, condition: "the file URL answers Apple's user agent differently from a browser's (error when only Apple's fetcher is refused)", source: "D-TN", producer: "check-evaluation")
    public static let rootPathDeprecated = FindingDefinition("root-path-deprecated", .deprecation, affects: OS.deprecated2019, condition: "the file is only at /apple-app-site-association, none at /.well-known/", source: "S19, S20", producer: "check-evaluation")
    public static let locationsDisagree = FindingDefinition("locations-disagree", .warning, affects: OS.all, condition: "both locations answer with semantically different files", source: "F-768759", producer: "check-evaluation")
    public static let cdnStale = FindingDefinition("cdn-stale", .warning, affects: OS.cdn, condition: "the CDN copy differs semantically from the origin (normal for up to ~24 h after a change)", source: "D-SAD, F-651737", producer: "check-evaluation")

    // MARK: Bytes and JSON syntax — AASAParser
    public static let utf8BOM = FindingDefinition("utf8-bom", .warning, affects: OS.all, condition: "the body starts with the UTF-8 byte-order mark EF BB BF", source: "RFC 8259 [uncertain]", producer: "parser")
    public static let signedFileDeprecated = FindingDefinition("signed-file-deprecated", .deprecation, affects: OS.deprecated2019, condition: "the body is a CMS SignedData message; the JSON inside is validated, the signature is not verified", source: "S15, S19", producer: "parser")
    public static let signedContentUnreadable = FindingDefinition("signed-content-unreadable", .error, affects: OS.all, condition: "the body looks like DER/CMS but no attached JSON content could be extracted", source: "ours (S15, X-P7)", producer: "parser")
    public static let invalidJSON = FindingDefinition("invalid-json", .error, affects: OS.all, condition: "the body does not parse as JSON (each syntax error found; reading continues where it safely can)", source: "S16, D-SAD", producer: "parser")
    public static let invalidUTF8 = FindingDefinition("invalid-utf8", .error, affects: OS.all, condition: "a string contains bytes that are not valid UTF-8", source: "RFC 8259 [inferred]", producer: "parser")
    public static let duplicateKey = FindingDefinition("duplicate-key", .warning, affects: OS.all, condition: "an object names the same key twice; the last one is used", source: "RFC 8259 [inferred]", producer: "parser")
    public static let nestingTooDeep = FindingDefinition("nesting-too-deep", .error, affects: OS.all, condition: "arrays/objects nested deeper than 128 levels; the deeper value is skipped", source: "ours", producer: "parser")
    public static let findingsTruncated = FindingDefinition("findings-truncated", .info, affects: OS.all, condition: "more than 1,000 findings; the rest are not listed", source: "ours", producer: "parser")

    // MARK: Document structure (§15.2) — AASAParser
    public static let rootNotObject = FindingDefinition("root-not-object", .error, affects: OS.all, condition: "the top level is not an object", source: "D-SAD", producer: "parser")
    public static let noServices = FindingDefinition("no-services", .warning, affects: OS.all, condition: "no recognised service key (applinks, webcredentials, activitycontinuation, appclips, authsrv)", source: "D-SAD, O-ST", producer: "parser")
    public static let unknownKey = FindingDefinition("unknown-key", .warning, affects: OS.all, condition: "a key not defined for its object (info at the top level, warning elsewhere); suggests the nearest known key", source: "O-G", producer: "parser")
    public static let serviceNotObject = FindingDefinition("service-not-object", .error, affects: OS.all, condition: "a service value is not an object", source: "D-AL", producer: "parser")
    public static let serviceAppsWrongType = FindingDefinition("service-apps-wrong-type", .error, affects: OS.all, condition: "apps of webcredentials/activitycontinuation/appclips/authsrv is not an array of strings", source: "S15, D-SAD", producer: "parser")
    public static let serviceAppsMissing = FindingDefinition("service-apps-missing", .warning, affects: OS.all, condition: "a webcredentials/activitycontinuation/appclips/authsrv object has no apps key, so it names no app", source: "ours (D-SAD)", producer: "parser")
    public static let serviceAppsEmpty = FindingDefinition("service-apps-empty", .warning, affects: OS.all, condition: "that apps array is empty", source: "D-SAD", producer: "parser")
    public static let detailsInNonApplinksService = FindingDefinition("details-in-non-applinks-service", .warning, affects: OS.all, condition: "details under a service other than applinks (replaces unknown-key)", source: "D-SAD", producer: "parser")
    public static let applinksDetailsMissing = FindingDefinition("applinks-details-missing", .warning, affects: OS.all, condition: "applinks without details", source: "D-AL", producer: "parser")
    public static let detailsEmpty = FindingDefinition("details-empty", .warning, affects: OS.all, condition: "details is [] (or {}): no app handles any link", source: "D-AL", producer: "parser")
    public static let detailsIsDictionary = FindingDefinition("details-is-dictionary", .deprecation, affects: OS.all, condition: "details is the 2015 object form keyed by app ID", source: "S15, S19, O-C", producer: "parser")
    public static let detailsWrongType = FindingDefinition("details-wrong-type", .error, affects: OS.all, condition: "details is neither an array nor an object", source: "D-AL", producer: "parser")
    public static let detailNotObject = FindingDefinition("detail-not-object", .error, affects: OS.all, condition: "a details entry is not an object", source: "D-DET", producer: "parser")
    public static let applinksAppsNotEmpty = FindingDefinition("applinks-apps-not-empty", .warning, affects: OS.legacy, condition: "applinks.apps is present and not empty", source: "S16, S19", producer: "parser")
    public static let applinksAppsMissing = FindingDefinition("applinks-apps-missing", .info, affects: OS.legacy, condition: "no applinks.apps (matters only for iOS 12 and earlier)", source: "S19, X-SO74", producer: "parser")
    public static let applinksAppsWrongType = FindingDefinition("applinks-apps-wrong-type", .warning, affects: OS.legacy, condition: "applinks.apps is not an array", source: "ours (S16, S19)", producer: "parser")
    public static let appIDMissing = FindingDefinition("appid-missing", .error, affects: OS.all, condition: "an entry has neither appID nor appIDs", source: "D-DET, O-ST", producer: "parser")
    public static let appIDWrongType = FindingDefinition("appid-wrong-type", .error, affects: OS.all, condition: "appID is not a string, or appIDs is not an array of strings", source: "D-DET", producer: "parser")
    public static let appIDsEmpty = FindingDefinition("appids-empty", .warning, affects: OS.components, condition: "appIDs is [] (appID, if any, is then ignored)", source: "O-ST", producer: "parser")
    public static let appIDAndAppIDs = FindingDefinition("appid-and-appids", .warning, affects: OS.all, condition: "both appID and appIDs in one entry (iOS 13+ ignores appID; iOS 12 and earlier ignore appIDs)", source: "O-ST, S19, D-TN", producer: "parser")
    public static let appIDMalformed = FindingDefinition("appid-malformed", .error, affects: OS.all, condition: "an app ID is not <prefix>.<bundle ID>, has an empty part, or a character outside A–Z a–z 0–9 - .", source: "D-DET, D-BID", producer: "parser")
    public static let appIDPrefixNonstandard = FindingDefinition("appid-prefix-nonstandard", .warning, affects: OS.all, condition: "the app ID prefix is not 10 upper-case letters/digits (missing team prefix, lower case, ABCD1234)", source: "S19, S16", producer: "parser")
    public static let appIDDuplicate = FindingDefinition("appid-duplicate", .info, affects: OS.all, condition: "the same app in several entries (legal; later entries only decide URLs earlier ones left undecided)", source: "O-ST, F-649423", producer: "validator")
    public static let pathsLegacy = FindingDefinition("paths-legacy", .deprecation, affects: OS.all, condition: "an entry uses paths without components", source: "S19, D-TN", producer: "parser")
    public static let pathsAndComponents = FindingDefinition("paths-and-components", .warning, affects: OS.all, condition: "both paths and components in one entry (iOS 13+ ignores paths; iOS 12 and earlier ignore components)", source: "S19, D-TN", producer: "parser")
    public static let pathsWrongType = FindingDefinition("paths-wrong-type", .error, affects: OS.all, condition: "paths is not an array, or an element is not a string (the element is dropped)", source: "ours (S16)", producer: "parser")
    public static let rulesMissing = FindingDefinition("rules-missing", .warning, affects: OS.all, condition: "an entry with app IDs but no rules (no key, empty array, or misspelled key)", source: "O-ST, F-649423", producer: "parser")
    public static let entryNeedsIOS13 = FindingDefinition("entry-needs-ios13", .info, affects: OS.legacy, condition: "an entry usable only from iOS 13: appIDs without appID, or components without paths (warning when applinks.apps shows the file targets iOS 12)", source: "X-SO74, S19", producer: "parser")
    public static let componentsWrongType = FindingDefinition("components-wrong-type", .error, affects: OS.components, condition: "components is not an array", source: "D-DET", producer: "parser")
    public static let componentNotObject = FindingDefinition("component-not-object", .error, affects: OS.components, condition: "a components element is not an object (it is dropped)", source: "D-CMP", producer: "parser")
    public static let componentKeyWrongType = FindingDefinition("component-key-wrong-type", .error, affects: OS.components, condition: "/, #, comment not strings; ? neither string nor object; exclude/caseSensitive/percentEncoded not Booleans (also in defaults)", source: "D-CMP, D-DEF", producer: "parser")
    public static let queryPredicateNotString = FindingDefinition("query-predicate-not-string", .error, affects: OS.components, condition: "a value in a ? dictionary is not a string: Apple then ignores the whole dictionary", source: "O-P", producer: "parser")
    public static let notPrefixInComponents = FindingDefinition("not-prefix-in-components", .warning, affects: OS.components, condition: "a / pattern starts with \"NOT \", which means nothing in components", source: "S19", producer: "parser")
    public static let pathPatternHasHash = FindingDefinition("path-pattern-has-hash", .warning, affects: OS.all, condition: "# inside a / pattern or legacy path: it can never match (the fragment is not part of the path)", source: "F-712348", producer: "parser")
    public static let nonASCIIPatternEncoded = FindingDefinition("non-ascii-pattern-encoded", .warning, affects: OS.components, condition: "non-ASCII in a pattern or variable value used with percentEncoded true: it can never match", source: "S19, S20, O-P", producer: "parser")
    public static let escapedPatternDecoded = FindingDefinition("escaped-pattern-decoded", .warning, affects: OS.defaults, condition: "%XX in a pattern used with percentEncoded false: the URL is decoded, the pattern is not", source: "O-P", producer: "parser")
    public static let patternNeverMatches = FindingDefinition("pattern-never-matches", .warning, affects: OS.all, condition: "a pattern no URL can satisfy: # in a ? or # pattern, a space or control character with percentEncoded true, & or = in a query item name, a scheme or host in a / pattern", source: "ours (§8.2, §8.5)", producer: "parser")
    public static let excludeAll = FindingDefinition("exclude-all", .warning, affects: OS.components, condition: "an exclusion that constrains nothing (/, ?, # absent or *): it blocks every URL for the app", source: "D-CMP, O-P", producer: "validator")
    public static let catchAllRule = FindingDefinition("catch-all-rule", .info, affects: OS.all, condition: "a positive rule that constrains nothing: every URL of the host opens the app", source: "D-CMP, X-BLZ", producer: "validator")
    public static let unreachableRule = FindingDefinition("unreachable-rule", .warning, affects: OS.all, condition: "a rule that can never decide: after a catch-all or exclude-all for the same apps, identical to an earlier rule, or covered by an earlier rule's pattern", source: "D-CMP", producer: "validator")
    public static let defaultsWrongType = FindingDefinition("defaults-wrong-type", .error, affects: OS.defaults, condition: "defaults is not an object", source: "D-DEF", producer: "parser")
    public static let defaultsPatternKeys = FindingDefinition("defaults-pattern-keys", .info, affects: OS.defaults, condition: "defaults carries /, ?, # or exclude (legal, takes effect, surprising)", source: "D-DEF, O-G", producer: "parser")
    public static let substWrongType = FindingDefinition("subst-wrong-type", .error, affects: OS.substitution, condition: "substitutionVariables is not an object, or a value is not an array of strings", source: "D-SUB", producer: "parser")
    public static let substNameInvalid = FindingDefinition("subst-name-invalid", .error, affects: OS.substitution, condition: "a variable name contains $, ( or ), or is empty", source: "D-SUB", producer: "parser")
    public static let substValueReferencesVariable = FindingDefinition("subst-value-references-variable", .error, affects: OS.substitution, condition: "a variable value contains $( — variables cannot refer to variables (no recursion)", source: "D-SUB", producer: "parser")
    public static let substUndefined = FindingDefinition("subst-undefined", .error, affects: OS.substitution, condition: "a pattern references an unknown variable name (names are case-sensitive)", source: "D-SUB", producer: "parser")
    public static let substUnterminated = FindingDefinition("subst-unterminated", .error, affects: OS.substitution, condition: "$( without a closing )", source: "D-SUB", producer: "parser")
    public static let substEmpty = FindingDefinition("subst-empty", .warning, affects: OS.substitution, condition: "a variable with no values: a pattern using it matches nothing", source: "D-SUB", producer: "parser")
    public static let substShadowsBuiltin = FindingDefinition("subst-shadows-builtin", .warning, affects: OS.substitution, condition: "a custom variable named like a built-in (alpha upper lower alnum digit xdigit region lang)", source: "D-SUB [uncertain]", producer: "parser")
    public static let substUnused = FindingDefinition("subst-unused", .info, affects: OS.substitution, condition: "a variable is defined but never referenced", source: "D-SUB", producer: "parser")
    public static let featureMinOS = FindingDefinition("feature-min-os", .info, affects: "Systems older than the feature (see message)", condition: "a key needs a newer OS than the oldest Apple system that reads association files; older systems silently ignore it (once per feature)", source: "S19, S20", producer: "validator")

    // MARK: Entitlement strings (§15.3) — EntitlementValidator
    public static let entitlementMalformed = FindingDefinition("entitlement-malformed", .error, affects: OS.all, condition: "scheme, path, query other than mode, trailing slash, empty host, IP address or spaces", source: "D-SAD", producer: "entitlement")
    public static let entitlementUnknownService = FindingDefinition("entitlement-unknown-service", .error, affects: OS.all, condition: "the service is not applinks, webcredentials, activitycontinuation, appclips or authsrv", source: "D-ENT", producer: "entitlement")
    public static let entitlementPort = FindingDefinition("entitlement-port", .error, affects: OS.all, condition: ":port present", source: "D-TN", producer: "entitlement")
    public static let entitlementModeInvalid = FindingDefinition("entitlement-mode-invalid", .error, affects: OS.all, condition: "mode is not developer, managed or developer+managed", source: "D-ENT", producer: "entitlement")
    public static let entitlementWildcardNotAllowed = FindingDefinition("entitlement-wildcard-not-allowed", .error, affects: OS.all, condition: "appclips:*.… (or a * anywhere but a leading *.)", source: "D-SAD", producer: "entitlement")
    public static let entitlementIDNNotPunycode = FindingDefinition("entitlement-idn-not-punycode", .warning, affects: OS.all, condition: "a non-ASCII host (write it in Punycode)", source: "S19", producer: "entitlement")
    public static let entitlementAlternateMode = FindingDefinition("entitlement-alternate-mode", .info, affects: OS.cdn, condition: "?mode=… present (bypasses the CDN; not for App Store builds)", source: "D-ENT, S20", producer: "entitlement")
    public static let entitlementAppNotInFile = FindingDefinition("entitlement-app-not-in-file", .error, affects: OS.all, condition: "the app ID is not listed for that service in the host's file", source: "D-SAD", producer: "entitlement")

    // MARK: Watched URLs of an app (verify-app) — WatchedURLCheck
    public static let watchedURLNotOpened = FindingDefinition("watched-url-not-opened", .error, affects: OS.all, condition: "a watched URL does not open the app under the file of the entitlement that covers its host", source: "D-CMP", producer: "watched-url")
    public static let watchedURLUnclaimed = FindingDefinition("watched-url-unclaimed", .error, affects: OS.all, condition: "a watched URL's host is claimed by no applinks entitlement of the app", source: "D-SAD", producer: "watched-url")
}

/// Every finding code of the module, in documentation order.
public enum FindingCatalog {
    public static let all: [FindingDefinition] = [
        .notHTTPS, .tlsUntrusted, .redirectNotAllowed, .redirectFollowed, .httpStatus, .contentTypeNotJSON, .sizeOver128k,
        .cdnFailure, .fetchFailed, .addressRefused, .rootPathDeprecated, .locationsDisagree, .cdnStale, .userAgentDiffers,
        .utf8BOM, .signedFileDeprecated, .signedContentUnreadable, .invalidJSON, .invalidUTF8, .duplicateKey,
        .nestingTooDeep, .findingsTruncated,
        .rootNotObject, .noServices, .unknownKey, .serviceNotObject, .serviceAppsWrongType, .serviceAppsMissing,
        .serviceAppsEmpty, .detailsInNonApplinksService, .applinksDetailsMissing, .detailsEmpty, .detailsIsDictionary,
        .detailsWrongType, .detailNotObject, .applinksAppsNotEmpty, .applinksAppsMissing, .applinksAppsWrongType,
        .appIDMissing, .appIDWrongType, .appIDsEmpty, .appIDAndAppIDs, .appIDMalformed, .appIDPrefixNonstandard,
        .appIDDuplicate, .pathsLegacy, .pathsAndComponents, .pathsWrongType, .rulesMissing, .entryNeedsIOS13,
        .componentsWrongType, .componentNotObject, .componentKeyWrongType, .queryPredicateNotString,
        .notPrefixInComponents, .pathPatternHasHash, .nonASCIIPatternEncoded, .escapedPatternDecoded,
        .patternNeverMatches, .excludeAll, .catchAllRule, .unreachableRule, .defaultsWrongType, .defaultsPatternKeys,
        .substWrongType, .substNameInvalid, .substValueReferencesVariable, .substUndefined, .substUnterminated,
        .substEmpty, .substShadowsBuiltin, .substUnused, .featureMinOS,
        .entitlementMalformed, .entitlementUnknownService, .entitlementPort, .entitlementModeInvalid,
        .entitlementWildcardNotAllowed, .entitlementIDNNotPunycode, .entitlementAlternateMode, .entitlementAppNotInFile,
        .watchedURLNotOpened, .watchedURLUnclaimed,
    ]

    public static func definition(for code: String) -> FindingDefinition? {
        all.first { $0.code == code }
    }
}

extension JSONFindingKinds {
    /// The JSON reader's findings under AASA's codes.
    static let aasa = JSONFindingKinds(
        invalidJSON: .invalidJSON, invalidUTF8: .invalidUTF8, duplicateKey: .duplicateKey,
        nestingTooDeep: .nestingTooDeep,
        expectedDocument: "an association file is a JSON object such as {\"applinks\": {…}}",
        truncated: .findingsTruncated)
}
