import LocatedJSON
import Vocabulary

// Which Android versions (and which verifier) a finding concerns (assetlinks-spec.md §9); the
// check's own codes (AndroidCheckFinding) use the same words.
enum Versions {
    static let all = "All Android versions (App Links 6.0+) and Google's Digital Asset Links API"
    static let google = "Google's Digital Asset Links API and Play services' verifier; AOSP's verifier upper-cases first"
    static let dynamic = "Android 15+ with Google services (older versions ignore dynamic rules)"
    static let aosp = "Devices using AOSP's verifier (it follows one level of includes)"
    static let aospInclude = "Google's API drops the statement; AOSP's verifier follows the include"
    static let googleCopy = "Google's Digital Asset Links API (and Play services' verifier, if it uses Google's copy)"
}

/// The finding codes of assetlinks.json (assetlinks-spec.md §10), each with its default severity,
/// the versions it affects and its source tags. Transport-only codes (`not-https`, `http-status`, …)
/// need an HTTP exchange and are reported by the fetcher; these can all be judged from the bytes.
public enum AndroidFinding {
    // MARK: Bytes and JSON (§10.1, §10.2)
    public static let bodyIsHTML = FindingDefinition("body-is-html", .error, affects: Versions.all, condition: "the body starts with < (an HTML page, typically an SPA's catch-all route)", source: "O-FAIL", producer: "reader")
    public static let sizeOverLimit = FindingDefinition("size-over-limit", .error, affects: Versions.all, condition: "the body is larger than 1,048,576 bytes (AOSP's cap)", source: "AOSP-SS, G-API", producer: "reader")
    public static let encodingInvalid = FindingDefinition("encoding-invalid", .error, affects: Versions.all, condition: "a string holds bytes that are not valid UTF-8", source: "[inferred]", producer: "reader")
    public static let utf8BOM = FindingDefinition("utf8-bom", .warning, affects: Versions.all, condition: "the body starts with the byte-order mark EF BB BF (whether Google accepts it is unknown)", source: "[uncertain]", producer: "reader")
    public static let invalidJSON = FindingDefinition("assetlinks-invalid-json", .error, affects: Versions.all, condition: "strict parsing fails (trailing comma, comment, single quotes, bare word, truncation); Google then reads no statement", source: "G-COMPAT, AOSP-SS", producer: "reader")
    public static let nestingTooDeep = FindingDefinition("nesting-too-deep", .error, affects: Versions.all, condition: "arrays/objects nested deeper than 128 levels; the deeper value is not read", source: "ours", producer: "reader")
    public static let duplicateJSONKey = FindingDefinition("duplicate-json-key", .warning, affects: Versions.all, condition: "an object names the same key twice; parsers disagree on which one counts (AOSP keeps the last, as we do)", source: "[inferred]", producer: "reader")
    public static let findingsTruncated = FindingDefinition("findings-truncated", .info, affects: Versions.all, condition: "more than 1,000 findings; the rest are not listed", source: "ours", producer: "reader")
    public static let notArray = FindingDefinition("assetlinks-not-array", .error, affects: Versions.all, condition: "the top level is not an array; Google reads no statement", source: "G-SPEC, G-COMPAT", producer: "reader")
    public static let empty = FindingDefinition("assetlinks-empty", .error, affects: Versions.all, condition: "the list is [] or no statement Google would honour is left", source: "G-CREATE, G-COMPAT", producer: "reader")
    public static let statementNotObject = FindingDefinition("statement-not-object", .error, affects: Versions.all, condition: "a list element is not an object (dropped)", source: "G-COMPAT", producer: "reader")
    public static let statementDropped = FindingDefinition("statement-dropped", .warning, affects: Versions.all, condition: "summary: N of M statements are invalid and dropped, the others still apply", source: "G-COMPAT, AOSP-SS", producer: "reader")
    public static let relationMissing = FindingDefinition("statement-relation-missing", .error, affects: Versions.all, condition: "relation is absent or not an array (dropped)", source: "G-COMPAT", producer: "reader")
    public static let relationEmpty = FindingDefinition("statement-relation-empty", .warning, affects: Versions.all, condition: "relation is [] (the statement grants nothing)", source: "[inferred]", producer: "reader")
    public static let relationMalformed = FindingDefinition("relation-malformed", .error, affects: Versions.all, condition: "a relation is not a string of the form kind/detail ([a-z0-9_]+/[a-z0-9_.]+); the statement is dropped", source: "G-SPEC, G-COMPAT", producer: "reader")
    public static let relationUnknown = FindingDefinition("relation-unknown", .info, affects: Versions.all, condition: "a well-formed relation no Android feature reads (warning when within two edits of a known one)", source: "G-REL", producer: "reader")
    public static let targetMissing = FindingDefinition("statement-target-missing", .error, affects: Versions.all, condition: "a statement without target (dropped)", source: "G-COMPAT", producer: "reader")
    public static let targetNotObject = FindingDefinition("target-not-object", .error, affects: Versions.all, condition: "target is not an object (dropped)", source: "G-COMPAT", producer: "reader")
    public static let namespaceUnknown = FindingDefinition("target-namespace-unknown", .error, affects: Versions.all, condition: "namespace missing or not android_app/web (ios_app included); the statement is dropped", source: "G-COMPAT, G-API", producer: "reader")
    public static let packageNameMissing = FindingDefinition("package-name-missing", .error, affects: Versions.all, condition: "an android_app target without package_name (dropped)", source: "G-COMPAT", producer: "reader")
    public static let packageNameInvalid = FindingDefinition("package-name-invalid", .error, affects: Versions.all, condition: "package_name is not a string, empty, has whitespace (dropped), an empty segment or a character outside [A-Za-z0-9_.] (no app can have it)", source: "G-COMPAT, A-APPID", producer: "reader")
    public static let packageNameNonstandard = FindingDefinition("package-name-nonstandard", .warning, affects: Versions.all, condition: "valid characters, but not an application ID (fewer than two segments, or a segment not starting with a letter)", source: "A-APPID", producer: "reader")
    public static let fingerprintsMissing = FindingDefinition("fingerprints-missing", .error, affects: Versions.all, condition: "sha256_cert_fingerprints absent, not an array, or empty (dropped)", source: "G-COMPAT", producer: "reader")
    public static let fingerprintMalformed = FindingDefinition("fingerprint-malformed", .error, affects: Versions.all, condition: "a fingerprint is not 32 colon-joined upper-case hex octets (dropped; hints for SHA-1 and bare hex)", source: "G-API, G-COMPAT", producer: "reader")
    public static let fingerprintLowercase = FindingDefinition("fingerprint-lowercase", .error, affects: Versions.google, condition: "the right shape in lower case: Google drops the statement, AOSP devices accept it", source: "A-TRB, G-COMPAT, AOSP-SS", producer: "reader")
    public static let fingerprintPlaceholder = FindingDefinition("fingerprint-placeholder", .error, affects: Versions.all, condition: "all octets equal, or XX, ${…}, REPLACE, SHA256 text: no real signing key (Google keeps a well-formed one, no app matches it)", source: "O-FAIL", producer: "reader")
    public static let fingerprintDuplicate = FindingDefinition("fingerprint-duplicate", .info, affects: Versions.all, condition: "the same fingerprint twice in one target", source: "[inferred]", producer: "reader")
    public static let webSiteMissing = FindingDefinition("web-site-missing", .error, affects: Versions.all, condition: "a web target without site (dropped)", source: "G-COMPAT", producer: "reader")
    public static let webSiteInvalid = FindingDefinition("web-site-invalid", .error, affects: Versions.all, condition: "site is not http(s)://host[:port]: a path (even /), query, fragment, userinfo, bad port, other or no scheme (dropped)", source: "G-SYNTAX, G-COMPAT", producer: "reader")
    public static let webSiteInsecure = FindingDefinition("web-site-insecure", .warning, affects: Versions.all, condition: "an http:// site", source: "G-API", producer: "reader")
    public static let unknownKey = FindingDefinition("unknown-key", .info, affects: Versions.all, condition: "a key the format does not define for its object (warning when near a known key, e.g. packageName)", source: "[inferred]", producer: "reader")

    // MARK: Includes (§10.3)
    public static let includeStatement = FindingDefinition("include-statement", .info, affects: Versions.all, condition: "the list includes another file (resolved and validated separately)", source: "G-SPEC", producer: "reader")
    public static let includeWithTarget = FindingDefinition("include-with-target", .error, affects: Versions.aospInclude, condition: "include together with relation or target; Google drops the statement", source: "G-COMPAT, AOSP-SS", producer: "reader")
    public static let includeURLInvalid = FindingDefinition("include-url-invalid", .error, affects: Versions.all, condition: "include is not an absolute http(s) URL with a valid port (dropped)", source: "G-COMPAT", producer: "reader")
    public static let includeInsecure = FindingDefinition("include-insecure", .error, affects: Versions.all, condition: "an http include in a file served over https or from an app (dropped)", source: "G-SPEC, G-API, G-COMPAT", producer: "reader")
    public static let includeLimit = FindingDefinition("include-limit", .error, affects: Versions.all, condition: "more than 10 includes in the tree, or a loop (Google's fetch budget runs out)", source: "G-SYNTAX, G-API", producer: "reader, includes")
    public static let includeFetchFailed = FindingDefinition("include-fetch-failed", .error, affects: Versions.all, condition: "an included file could not be read or is not a statement list (discarded alone)", source: "G-SPEC, G-COMPAT", producer: "includes")
    public static let includeNested = FindingDefinition("include-nested", .warning, affects: Versions.aosp, condition: "an included file includes another file", source: "AOSP-SS", producer: "includes")

    // MARK: Dynamic rules (§10.4)
    public static let dynamicRulesInvalid = FindingDefinition("dynamic-rules-invalid", .error, affects: Versions.dynamic, condition: "a malformed or empty field in the components (§4.2): Android discards every dynamic rule and the manifest alone decides", source: "A-CFG", producer: "reader")
    public static let dynamicRuleEmpty = FindingDefinition("dynamic-rule-empty", .error, affects: Versions.dynamic, condition: "a rule without /, ? or # (it never matches)", source: "AOSP-FW, A-CFG", producer: "reader")
    public static let dynamicRuleUnknownKey = FindingDefinition("dynamic-rule-unknown-key", .warning, affects: Versions.dynamic, condition: "a rule key other than / ? # exclude comments (e.g. Apple's comment); AOSP ignores it, Google may not", source: "[uncertain]", producer: "reader")
    public static let dynamicRulesDuplicate = FindingDefinition("dynamic-rules-duplicate", .warning, affects: Versions.dynamic, condition: "more than one component list for the same app; which one applies is not guaranteed (we use the first)", source: "A-CFG", producer: "validator")
    public static let relationExtensionOrphan = FindingDefinition("relation-extension-orphan", .warning, affects: Versions.dynamic, condition: "relation_extensions keyed by a relation the statement lacks, or on a web target", source: "G-API", producer: "reader")
    public static let dynamicRuleUnreachable = FindingDefinition("dynamic-rule-unreachable", .warning, affects: Versions.dynamic, condition: "a rule after one that matches every URL it could, or identical to an earlier one", source: "A-CFG", producer: "validator")
    public static let dynamicRulesExcludeOnly = FindingDefinition("dynamic-rules-exclude-only", .warning, affects: Versions.dynamic, condition: "no allow rule: no URL opens the app on Android 15+", source: "A-CFG", producer: "validator")
    public static let dynamicRulesNoDefault = FindingDefinition("dynamic-rules-no-default", .info, affects: Versions.dynamic, condition: "the list ends without a catch-all; URLs no rule matches stay in the browser", source: "A-CFG", producer: "validator")
    public static let dynamicPathNoSlash = FindingDefinition("dynamic-path-no-slash", .warning, affects: Versions.dynamic, condition: "a / pattern that does not start with /, * or ? (never matches a path)", source: "[inferred]", producer: "validator")
    public static let dynamicPatternEncoded = FindingDefinition("dynamic-pattern-encoded", .warning, affects: Versions.dynamic, condition: "%XX in a pattern: URLs are compared decoded, so it never matches the escape", source: "AOSP-SS, AOSP-FW", producer: "validator")
    public static let dynamicPatternRegexSyntax = FindingDefinition("dynamic-pattern-regex-syntax", .warning, affects: Versions.dynamic, condition: "[ ] { } + ^ $ \\ in a pattern: literal characters, not regular-expression syntax", source: "AOSP-SS", producer: "validator")
    public static let dynamicPatternNonbacktracking = FindingDefinition("dynamic-pattern-nonbacktracking", .info, affects: Versions.dynamic, condition: "* followed by more text: it stops at the first occurrence of the next character and never backtracks", source: "AOSP-SS, A-CFG", producer: "validator")
    public static let dynamicPatternStarQuestion = FindingDefinition("dynamic-pattern-star-question", .warning, affects: Versions.dynamic, condition: "*? in a pattern: the ? then stands for a literal . (platform quirk)", source: "AOSP-SS", producer: "validator")
    public static let dynamicPathHasQuery = FindingDefinition("dynamic-path-has-query", .warning, affects: Versions.dynamic, condition: "a / pattern containing ? followed by name= or a #: paths never contain them", source: "[inferred]", producer: "validator")
    public static let dynamicRulesMinOS = FindingDefinition("dynamic-rules-min-os", .info, affects: "Android 14 and lower, and devices without Google services (they use the manifest only)", condition: "the file has dynamic rules; older devices open every path the manifest claims", source: "A-CFG, A-ADD", producer: "validator")
}

/// Every finding code of the module, in documentation order.
public enum AndroidFindingCatalog {
    public static let all: [FindingDefinition] = [
        AndroidFinding.bodyIsHTML, AndroidFinding.sizeOverLimit, AndroidFinding.encodingInvalid, AndroidFinding.utf8BOM,
        AndroidFinding.invalidJSON, AndroidFinding.nestingTooDeep, AndroidFinding.duplicateJSONKey, AndroidFinding.findingsTruncated,
        AndroidFinding.notArray, AndroidFinding.empty, AndroidFinding.statementNotObject, AndroidFinding.statementDropped,
        AndroidFinding.relationMissing, AndroidFinding.relationEmpty, AndroidFinding.relationMalformed, AndroidFinding.relationUnknown,
        AndroidFinding.targetMissing, AndroidFinding.targetNotObject, AndroidFinding.namespaceUnknown,
        AndroidFinding.packageNameMissing, AndroidFinding.packageNameInvalid, AndroidFinding.packageNameNonstandard,
        AndroidFinding.fingerprintsMissing, AndroidFinding.fingerprintMalformed, AndroidFinding.fingerprintLowercase,
        AndroidFinding.fingerprintPlaceholder, AndroidFinding.fingerprintDuplicate,
        AndroidFinding.webSiteMissing, AndroidFinding.webSiteInvalid, AndroidFinding.webSiteInsecure, AndroidFinding.unknownKey,
        AndroidFinding.includeStatement, AndroidFinding.includeWithTarget, AndroidFinding.includeURLInvalid,
        AndroidFinding.includeInsecure, AndroidFinding.includeLimit, AndroidFinding.includeFetchFailed, AndroidFinding.includeNested,
        AndroidFinding.dynamicRulesInvalid, AndroidFinding.dynamicRuleEmpty, AndroidFinding.dynamicRuleUnknownKey,
        AndroidFinding.dynamicRulesDuplicate, AndroidFinding.relationExtensionOrphan, AndroidFinding.dynamicRuleUnreachable,
        AndroidFinding.dynamicRulesExcludeOnly, AndroidFinding.dynamicRulesNoDefault, AndroidFinding.dynamicPathNoSlash,
        AndroidFinding.dynamicPatternEncoded, AndroidFinding.dynamicPatternRegexSyntax, AndroidFinding.dynamicPatternNonbacktracking,
        AndroidFinding.dynamicPatternStarQuestion, AndroidFinding.dynamicPathHasQuery, AndroidFinding.dynamicRulesMinOS,
    ]

    public static func definition(for code: String) -> FindingDefinition? {
        all.first { $0.code == code }
    }
}

extension JSONFindingKinds {
    /// The JSON reader's findings under assetlinks.json's codes.
    static let assetlinks = JSONFindingKinds(
        invalidJSON: AndroidFinding.invalidJSON, invalidUTF8: AndroidFinding.encodingInvalid,
        duplicateKey: AndroidFinding.duplicateJSONKey, nestingTooDeep: AndroidFinding.nestingTooDeep,
        expectedDocument: "assetlinks.json is a JSON array of statements such as [{\"relation\": […], \"target\": {…}}]",
        truncated: AndroidFinding.findingsTruncated)
}
