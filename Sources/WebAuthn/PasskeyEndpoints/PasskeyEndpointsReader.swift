import LocatedJSON
import Vocabulary

/// What `/.well-known/passkey-endpoints` advertises (passkeys-spec.md §3.7).
public struct PasskeyEndpointsReading: Sendable {
    /// The links that are absolute http(s) URLs, by member name (`enroll`, `manage`, `prfUsageDetails`);
    /// nil when the body is no JSON object.
    public var endpoints: [String: String]?
    public var findings: [Finding]
}

/// Reads `/.well-known/passkey-endpoints`: a JSON object whose optional members `enroll`, `manage`
/// and `prfUsageDetails` are URLs; `{}` means "passkeys supported, no links". Info and warnings only
/// (the file is optional). Never throws and never traps on any input.
public enum PasskeyEndpointsReader {
    public static let members = ["enroll", "manage", "prfUsageDetails"]

    /// Whether `bytes` look like this file rather than the related-origins file: a JSON object with
    /// one of the three members and no `origins` (`validate` asks it of a file named neither way).
    public static func isPasskeyEndpoints(_ bytes: [UInt8]) -> Bool {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let root = JSONReader.read(SourceText(bytes: bytes), from: start, kinds: .passkeyEndpoints).value,
              case .object = root.kind else { return false }
        return root.member(RelatedOriginsReader.originsKey) == nil && members.contains { root.member($0) != nil }
    }

    public static func read(_ bytes: [UInt8], rpID: RelyingPartyID? = nil, rules: DomainRules) -> PasskeyEndpointsReading {
        let source = SourceText(bytes: bytes)
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let parsed = JSONReader.read(source, from: start, kinds: .passkeyEndpoints)
        var findings = FindingCollector(truncation: WebAuthnFinding.findingsTruncated)
        findings.add(contentsOf: parsed.findings.finish())
        guard let root = parsed.value else { return PasskeyEndpointsReading(endpoints: nil, findings: findings.finish()) }
        guard case .object(let objectMembers) = root.kind else {
            findings.add(PasskeyEndpointsFinding.notObject.finding(at: source.location("", root.position),
                "The file is \(root.typeDescription), but passkey-endpoints must be a JSON object; credential managers read no links from it.",
                hint: "Write {\"enroll\": \"https://…\", \"manage\": \"https://…\"}, or {} for none."))
            return PasskeyEndpointsReading(endpoints: nil, findings: findings.finish())
        }
        if objectMembers.isEmpty {
            findings.add(PasskeyEndpointsFinding.empty.finding(at: source.location("", root.position),
                "The file is {}: it says the site supports passkeys, with no link to enrol or manage them.",
                hint: "Add \"enroll\" and \"manage\" URLs so credential managers can send people there."))
        }
        var endpoints: [String: String] = [:]
        var seen = Set<String>()
        for member in objectMembers where seen.insert(member.key).inserted {
            let location = source.location("/" + JSONPath.escape(member.key), member.keyPosition)
            guard members.contains(member.key) else {
                let near = KeySuggestion.nearest(to: member.key, among: members)
                findings.add(PasskeyEndpointsFinding.unknownKey.finding(at: location,
                    "The member \"\(member.key)\" is not part of the format; clients ignore it." + (near.map { " Did you mean \"\($0)\"?" } ?? ""),
                    hint: near.map { "Rename it to \"\($0)\"." } ?? "Remove it."))
                continue
            }
            let value = root.member(member.key)?.value ?? member.value
            if let url = link(member.key, value, location: source.location("/" + member.key, value.position), rpID: rpID,
                              rules: rules, findings: &findings) {
                endpoints[member.key] = url
            }
        }
        return PasskeyEndpointsReading(endpoints: endpoints, findings: findings.finish())
    }

    /// The member's URL when it is an absolute http(s) URL, with the findings about it.
    private static func link(_ key: String, _ value: JSONValue, location: SourceLocation, rpID: RelyingPartyID?,
                             rules: DomainRules, findings: inout FindingCollector) -> String? {
        guard let text = value.stringValue else {
            findings.add(PasskeyEndpointsFinding.urlInvalid.finding(at: location,
                "\"\(key)\" is \(value.typeDescription), not a URL string.", hint: "Write the page's absolute URL, e.g. \"https://example.com/passkeys\"."))
            return nil
        }
        guard case .success(let url) = OriginURL.parse(text, rules: rules), let origin = url.origin,
              url.scheme == "https" || url.scheme == "http" else {
            findings.add(PasskeyEndpointsFinding.urlInvalid.finding(at: location,
                "\"\(key)\" is \"\(text)\", which is not an absolute https URL.", hint: "Write the page's absolute URL, e.g. \"https://example.com/passkeys\"."))
            return nil
        }
        if url.scheme == "http" {
            findings.add(PasskeyEndpointsFinding.urlInsecure.finding(at: location,
                "\"\(key)\" points to \(text) over http.", hint: "Use https."))
        }
        if let rpID, !rpID.covers(host: origin.host) {
            findings.add(PasskeyEndpointsFinding.offsite.finding(at: location,
                "\"\(key)\" points to \(origin.host), outside the RP ID \(rpID)'s site; whether clients follow off-site links is unsettled.",
                hint: "Confirm the page belongs to the same relying party, or host it under \(rpID)."))
        }
        return text
    }
}
