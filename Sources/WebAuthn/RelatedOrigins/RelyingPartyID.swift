import Vocabulary

/// An RP ID as browsers accept it (passkeys-spec.md §4 step 0): a domain in lower-case Punycode, no
/// scheme, port, path or trailing dot, not an IP address and not a public suffix the list names.
/// Upper case and Unicode are converted (browsers parse the RP ID as a host); the rest is refused.
public struct RelyingPartyID: Hashable, Sendable, CustomStringConvertible {
    public let domain: String

    public var description: String { domain }

    public init(_ text: String, rules: DomainRules) throws(RelyingPartyIDError) {
        func refuse(_ reason: String) -> RelyingPartyIDError { RelyingPartyIDError(input: text, reason: reason) }
        if text.contains("://") {
            throw refuse("an RP ID is a domain, not an origin: drop the scheme (e.g. example.com, not https://example.com)")
        }
        if let bad = text.first(where: { "/?#@:[] ".contains($0) }) {
            throw refuse("an RP ID is a bare domain and cannot contain \"\(bad)\" (no port, path or user)")
        }
        if text.contains("*") { throw refuse("an RP ID has no wildcard; give the domain itself") }
        if text.hasSuffix(".") { throw refuse("remove the trailing dot: browsers compare the RP ID with the page's host as written") }
        var changes = Set<OriginURL.Change>()
        let host: OriginURL.Host
        switch OriginURL.parseHost(Substring(text), rules: rules, changes: &changes) {
        case .failure(let failure): throw refuse(failure.reason)
        case .success(let parsed): host = parsed
        }
        guard case .domain(let domain) = host else {
            throw refuse("an RP ID cannot be an IP address; WebAuthn needs a domain")
        }
        guard !domain.split(separator: ".", omittingEmptySubsequences: false).contains("") else {
            throw refuse("the domain has an empty label")
        }
        if rules.suffixes.isListedPublicSuffix(domain) {
            throw refuse("\(domain) is a public suffix (on the Public Suffix List): no site may claim it as its RP ID")
        }
        self.domain = domain
    }

    /// Whether a page on `host` may use this RP ID without the related-origins file: the RP ID equals
    /// the host or is a registrable suffix of it (HTML's "is a registrable domain suffix of or is equal
    /// to"; the RP ID is never a public suffix, see `init`).
    public func covers(host: String) -> Bool {
        host == domain || host.hasSuffix("." + domain)
    }
}

/// Why a string is no usable RP ID, in words for the person who typed it.
public struct RelyingPartyIDError: Error, Hashable, Sendable, CustomStringConvertible {
    public let input: String
    public let reason: String
    public var description: String { "\"\(input)\" is not a usable RP ID: \(reason)." }
}
