import LocatedJSON
import Vocabulary

/// Which clients a finding concerns (passkeys-spec.md §2: Related Origin Requests ship in Chrome/Edge
/// 128+ and Safari 18; Firefox has none).
enum Clients {
    static let ror = "Browsers with Related Origin Requests: Chrome/Edge 128+, Safari 18+ (iOS 18, macOS 15)"
    static let chromium = "Chrome/Edge 128+ (Chromium's limits; Safari's are unpublished, the monitor applies Chromium's to every browser)"
    static let servers = "Relying-party servers (browsers skip the entry)"
    static let managers = "Credential managers that read passkey-endpoints (Google Password Manager)"
    static let passwordManagers = "Password managers that use /.well-known/change-password"
}

/// The finding codes of `/.well-known/webauthn` (passkeys-spec.md §6.1), each with its severity, the
/// clients it concerns and its source tags. The transport codes (`webauthn-missing` … `webauthn-content-type`)
/// need an HTTP exchange (`RelatedOriginsTransport`); the others are judged from the bytes.
public enum WebAuthnFinding {
    // MARK: Transport (§2, §6.1)
    public static let missing = FindingDefinition("webauthn-missing", .info, affects: Clients.ror, condition: "404 or 410 (an error when a web origin needs the file)", source: "W-ROR", producer: "transport")
    public static let httpStatus = FindingDefinition("webauthn-http-status", .error, affects: Clients.ror, condition: "the final status is not 200 (and not 404/410)", source: "W-ROR", producer: "transport")
    public static let redirectFollowed = FindingDefinition("webauthn-redirect-followed", .info, affects: Clients.ror, condition: "one or more https redirects were followed to the file", source: "W-ROR", producer: "transport")
    public static let redirectInsecure = FindingDefinition("webauthn-redirect-insecure", .error, affects: Clients.ror, condition: "a redirect hop goes to http:", source: "W-HIST", producer: "transport")
    public static let contentType = FindingDefinition("webauthn-content-type", .error, affects: Clients.ror, condition: "the MIME type's essence is not application/json (case-insensitive; parameters allowed), or no Content-Type", source: "W-ROR, CR-RV", producer: "transport")

    // MARK: Bytes and JSON (§3.1)
    public static let bodyHTML = FindingDefinition("webauthn-body-html", .error, affects: Clients.ror, condition: "the body starts with < (an HTML page, typically a catch-all route)", source: "O-WK", producer: "reader")
    public static let tooLarge = FindingDefinition("webauthn-too-large", .error, affects: Clients.chromium, condition: "the body is larger than 262,144 bytes (Chromium's cap; the fetch fails)", source: "CR-RV", producer: "reader")
    public static let invalidJSON = FindingDefinition("webauthn-invalid-json", .error, affects: Clients.ror, condition: "strict RFC 8259 parsing fails (empty body, trailing comma, comment, single quotes, invalid UTF-8)", source: "CR-RV", producer: "reader")
    public static let utf8BOM = FindingDefinition("webauthn-utf8-bom", .warning, affects: Clients.ror, condition: "the body starts with EF BB BF (read past, as RFC 8259 allows; clients unverified)", source: "[uncertain]", producer: "reader")
    public static let notObject = FindingDefinition("webauthn-not-object", .error, affects: Clients.ror, condition: "the top level is not an object", source: "W-ROR", producer: "reader")
    public static let originsMissing = FindingDefinition("webauthn-origins-missing", .error, affects: Clients.ror, condition: "no origins member (a near name is suggested)", source: "W-ROR", producer: "reader")
    public static let originsNotArray = FindingDefinition("webauthn-origins-not-array", .error, affects: Clients.ror, condition: "origins is not an array", source: "W-ROR", producer: "reader")
    public static let originNotString = FindingDefinition("webauthn-origin-not-string", .error, affects: Clients.ror, condition: "an element of origins is not a string (the spec rejects the file)", source: "W-ROR", producer: "reader")
    public static let originsEmpty = FindingDefinition("webauthn-origins-empty", .error, affects: Clients.ror, condition: "origins is []", source: "W-ROR", producer: "reader")
    public static let duplicateKey = FindingDefinition("webauthn-duplicate-key", .warning, affects: Clients.ror, condition: "an object names the same member twice (the last one is read)", source: "[uncertain]", producer: "reader")
    public static let unknownKey = FindingDefinition("webauthn-unknown-key", .info, affects: Clients.ror, condition: "a top-level member other than origins (ignored)", source: "CR-RV", producer: "reader")
    public static let nestingTooDeep = FindingDefinition("nesting-too-deep", .warning, affects: Clients.chromium, condition: "arrays/objects nested deeper than 128 levels; the deeper value is not read (Chromium refuses a file deeper than 200)", source: "ours", producer: "reader")
    public static let findingsTruncated = FindingDefinition("findings-truncated", .info, affects: Clients.ror, condition: "more than 1,000 findings; the rest are not listed", source: "ours", producer: "reader")

    // MARK: Entries (§3.2–3.4)
    public static let noUsableOrigin = FindingDefinition("webauthn-no-usable-origin", .error, affects: Clients.ror, condition: "strings present, but none is an https origin with a registrable domain and no * in its first five labels", source: "[inferred]", producer: "validator")
    public static let originUnparseable = FindingDefinition("webauthn-origin-unparseable", .warning, affects: Clients.ror, condition: "the entry fails URL parsing (skipped; spends no label)", source: "URL", producer: "validator")
    public static let originNotHTTPS = FindingDefinition("webauthn-origin-not-https", .warning, affects: Clients.ror, condition: "the scheme is not https (never matches a caller, still spends a label)", source: "W-ROR", producer: "validator")
    public static let originHasPath = FindingDefinition("webauthn-origin-has-path", .warning, affects: Clients.ror, condition: "a path other than /, a query or a fragment (ignored: the origin still matches)", source: "URL, CR-RV", producer: "validator")
    public static let originTrailingSlash = FindingDefinition("webauthn-origin-trailing-slash", .info, affects: Clients.ror, condition: "the path is exactly /", source: "URL", producer: "validator")
    public static let originUserinfo = FindingDefinition("webauthn-origin-userinfo", .warning, affects: Clients.ror, condition: "user@ or user:password@ before the host (ignored)", source: "URL", producer: "validator")
    public static let originPort = FindingDefinition("webauthn-origin-port", .info, affects: Clients.ror, condition: "an explicit non-default port (only callers on that port match)", source: "URL", producer: "validator")
    public static let originDefaultPort = FindingDefinition("webauthn-origin-default-port", .info, affects: Clients.ror, condition: ":443 (or the scheme's default port) written out", source: "URL", producer: "validator")
    public static let originWildcard = FindingDefinition("webauthn-origin-wildcard", .warning, affects: Clients.ror, condition: "* in the host: a literal character, no wildcard (matches no caller)", source: "URL", producer: "validator")
    public static let originTrailingDot = FindingDefinition("webauthn-origin-trailing-dot", .warning, affects: Clients.ror, condition: "the host ends with . (another origin than the host without it)", source: "URL", producer: "validator")
    public static let originNotCanonical = FindingDefinition("webauthn-origin-not-canonical", .info, affects: Clients.ror, condition: "parsing trimmed, lower-cased or Punycode-converted the entry", source: "URL", producer: "validator")
    public static let originNoRegistrableDomain = FindingDefinition("webauthn-origin-no-registrable-domain", .warning, affects: Clients.ror, condition: "an IP address, a public suffix (ICANN or private section) or a single-label host (skipped)", source: "W-LABEL, PSL", producer: "validator")
    public static let originAppHash = FindingDefinition("webauthn-origin-app-hash", .warning, affects: Clients.servers, condition: "an android:apk-key-hash: entry (skipped by browsers; it belongs on the server's allow-list)", source: "O-APKHASH", producer: "validator")
    public static let originDuplicate = FindingDefinition("webauthn-origin-duplicate", .info, affects: Clients.ror, condition: "the same origin twice", source: "—", producer: "validator")
    public static let originIsRP = FindingDefinition("webauthn-origin-is-rp", .info, affects: Clients.ror, condition: "the entry is the RP ID's origin or a subdomain's (it never needs the file, yet spends a label)", source: "PKD-ROR", producer: "validator")
    public static let labelLimit = FindingDefinition("webauthn-label-limit", .warning, affects: Clients.chromium, condition: "more than 5 distinct registrable-domain labels: the entries past the fifth are listed (ignored)", source: "W-ROR, CR-RV", producer: "validator")
    public static let manyOrigins = FindingDefinition("webauthn-many-origins", .info, affects: Clients.ror, condition: "more than 1,000 entries", source: "[inferred]", producer: "validator")
}

/// Every finding code of `/.well-known/webauthn`, in documentation order.
public enum WebAuthnFindingCatalog {
    public static let all: [FindingDefinition] = [
        WebAuthnFinding.missing, WebAuthnFinding.httpStatus, WebAuthnFinding.redirectFollowed, WebAuthnFinding.redirectInsecure,
        WebAuthnFinding.contentType, WebAuthnFinding.bodyHTML, WebAuthnFinding.tooLarge, WebAuthnFinding.invalidJSON,
        WebAuthnFinding.utf8BOM, WebAuthnFinding.notObject, WebAuthnFinding.originsMissing, WebAuthnFinding.originsNotArray,
        WebAuthnFinding.originNotString, WebAuthnFinding.originsEmpty, WebAuthnFinding.noUsableOrigin, WebAuthnFinding.duplicateKey,
        WebAuthnFinding.unknownKey, WebAuthnFinding.originUnparseable, WebAuthnFinding.originNotHTTPS, WebAuthnFinding.originHasPath,
        WebAuthnFinding.originTrailingSlash, WebAuthnFinding.originUserinfo, WebAuthnFinding.originPort, WebAuthnFinding.originDefaultPort,
        WebAuthnFinding.originWildcard, WebAuthnFinding.originTrailingDot, WebAuthnFinding.originNotCanonical,
        WebAuthnFinding.originNoRegistrableDomain, WebAuthnFinding.originAppHash, WebAuthnFinding.originDuplicate,
        WebAuthnFinding.originIsRP, WebAuthnFinding.labelLimit, WebAuthnFinding.manyOrigins,
        WebAuthnFinding.nestingTooDeep, WebAuthnFinding.findingsTruncated,
    ]

    public static func definition(for code: String) -> FindingDefinition? {
        all.first { $0.code == code }
    }
}

extension JSONFindingKinds {
    /// The JSON reader's findings under the webauthn file's codes. Invalid UTF-8 is a strict-parse
    /// failure too: RFC 8259 §8.1 requires UTF-8, and Chromium's parser refuses other bytes.
    static let webauthn = JSONFindingKinds(
        invalidJSON: WebAuthnFinding.invalidJSON, invalidUTF8: WebAuthnFinding.invalidJSON,
        duplicateKey: WebAuthnFinding.duplicateKey, nestingTooDeep: WebAuthnFinding.nestingTooDeep,
        expectedDocument: "/.well-known/webauthn is a JSON object such as {\"origins\": [\"https://shop.example\"]}",
        truncated: WebAuthnFinding.findingsTruncated)
}
