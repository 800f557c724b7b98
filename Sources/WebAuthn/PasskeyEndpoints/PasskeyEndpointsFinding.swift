import LocatedJSON
import Vocabulary

/// The codes of the two optional files, `/.well-known/passkey-endpoints` and
/// `/.well-known/change-password` (passkeys-spec.md §6.2). Issue #33 has them report info and
/// warnings only: both files are optional, so where §6.2 says error (a redirect, a bad status or
/// content type, invalid JSON, not an object) the finding is a warning here, and the condition says so.
public enum PasskeyEndpointsFinding {
    public static let missing = FindingDefinition("passkey-endpoints-missing", .info, affects: Clients.managers, condition: "404: the file is optional", source: "PE-SPEC", producer: "transport")
    public static let redirect = FindingDefinition("passkey-endpoints-redirect", .warning, affects: Clients.managers, condition: "any 3xx (the file must not redirect; an error in §6.2, a warning for an optional file)", source: "PE-SPEC", producer: "transport")
    public static let httpStatus = FindingDefinition("passkey-endpoints-http-status", .warning, affects: Clients.managers, condition: "the status is not 200 (and not 404) (an error in §6.2, a warning for an optional file)", source: "PE-SPEC", producer: "transport")
    public static let contentType = FindingDefinition("passkey-endpoints-content-type", .warning, affects: Clients.managers, condition: "not served as application/json (an error in §6.2, a warning for an optional file)", source: "PE-SPEC", producer: "transport")
    public static let catchAll = FindingDefinition("passkey-endpoints-catch-all", .warning, affects: Clients.managers, condition: "a nonsense well-known path also answers 200: a catch-all route may advertise passkeys by accident", source: "CP-SPEC, O-WK", producer: "transport")
    public static let invalidJSON = FindingDefinition("passkey-endpoints-invalid-json", .warning, affects: Clients.managers, condition: "strict JSON parsing fails (an error in §6.2, a warning for an optional file)", source: "PE-SPEC", producer: "reader")
    public static let notObject = FindingDefinition("passkey-endpoints-not-object", .warning, affects: Clients.managers, condition: "the top level is not an object (an error in §6.2, a warning for an optional file)", source: "PE-SPEC", producer: "reader")
    public static let empty = FindingDefinition("passkey-endpoints-empty", .info, affects: Clients.managers, condition: "{}: passkeys supported, no links", source: "PE-SPEC", producer: "reader")
    public static let urlInvalid = FindingDefinition("passkey-endpoints-url-invalid", .warning, affects: Clients.managers, condition: "enroll, manage or prfUsageDetails is not a string holding an absolute http(s) URL", source: "[inferred]", producer: "reader")
    public static let urlInsecure = FindingDefinition("passkey-endpoints-url-insecure", .warning, affects: Clients.managers, condition: "an http: URL", source: "[inferred]", producer: "reader")
    public static let offsite = FindingDefinition("passkey-endpoints-offsite", .info, affects: Clients.managers, condition: "a URL's host is outside the RP ID's site", source: "[inferred]", producer: "reader")
    public static let unknownKey = FindingDefinition("passkey-endpoints-unknown-key", .info, affects: Clients.managers, condition: "a member other than enroll, manage, prfUsageDetails (ignored)", source: "PE-SPEC", producer: "reader")
    public static let duplicateKey = FindingDefinition("duplicate-json-key", .warning, affects: Clients.managers, condition: "an object names the same member twice (the last one is read)", source: "[inferred]", producer: "reader")
    public static let changePasswordMissing = FindingDefinition("change-password-missing", .info, affects: Clients.passwordManagers, condition: "/.well-known/change-password neither redirects nor answers 200", source: "CP-SPEC", producer: "change-password")
    public static let changePasswordPermanentRedirect = FindingDefinition("change-password-permanent-redirect", .warning, affects: Clients.passwordManagers, condition: "301 or 308 (browsers cache a permanent redirect; use 302, 303 or 307)", source: "CP-SPEC", producer: "change-password")
    public static let changePasswordUnreliableStatus = FindingDefinition("change-password-unreliable-status", .warning, affects: Clients.passwordManagers, condition: "the reliability probe (a path that must not exist) answers 2xx, so the site's statuses cannot be trusted", source: "CP-SPEC", producer: "change-password")
}

/// Every code of the two optional files, in documentation order.
public enum PasskeyEndpointsFindingCatalog {
    public static let all: [FindingDefinition] = [
        PasskeyEndpointsFinding.missing, PasskeyEndpointsFinding.redirect, PasskeyEndpointsFinding.httpStatus,
        PasskeyEndpointsFinding.contentType, PasskeyEndpointsFinding.catchAll, PasskeyEndpointsFinding.invalidJSON,
        PasskeyEndpointsFinding.notObject, PasskeyEndpointsFinding.empty, PasskeyEndpointsFinding.urlInvalid,
        PasskeyEndpointsFinding.urlInsecure, PasskeyEndpointsFinding.offsite, PasskeyEndpointsFinding.unknownKey,
        PasskeyEndpointsFinding.duplicateKey, PasskeyEndpointsFinding.changePasswordMissing,
        PasskeyEndpointsFinding.changePasswordPermanentRedirect, PasskeyEndpointsFinding.changePasswordUnreliableStatus,
    ]

    public static func definition(for code: String) -> FindingDefinition? {
        all.first { $0.code == code }
    }
}

extension JSONFindingKinds {
    /// The JSON reader's findings under passkey-endpoints' codes (depth and truncation as for webauthn).
    static let passkeyEndpoints = JSONFindingKinds(
        invalidJSON: PasskeyEndpointsFinding.invalidJSON, invalidUTF8: PasskeyEndpointsFinding.invalidJSON,
        duplicateKey: PasskeyEndpointsFinding.duplicateKey, nestingTooDeep: WebAuthnFinding.nestingTooDeep,
        expectedDocument: "/.well-known/passkey-endpoints is a JSON object such as {\"enroll\": \"https://example.com/passkeys/new\"}",
        truncated: WebAuthnFinding.findingsTruncated)
}
