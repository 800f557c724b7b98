import Vocabulary

/// The two tables origin parsing and label counting need, supplied from outside the core: IDNA
/// (libidn2's, the conversion `HostName` uses) and the Public Suffix List (libpsl's).
public struct DomainRules: Sendable {
    public let idna: any IDNAConversion & Sendable
    public let suffixes: any PublicSuffixRules

    public init(idna: any IDNAConversion & Sendable, suffixes: any PublicSuffixRules) {
        self.idna = idna
        self.suffixes = suffixes
    }

    /// The registrable domain of a domain host, by the URL Standard's algorithm: a trailing dot is set
    /// aside for the lookup (`example.co.uk.` → `example.co.uk`), nil for a public suffix or a
    /// single-label host.
    func registrableDomain(of domain: String) -> String? {
        var name = Substring(domain)
        if name.hasSuffix(".") { name = name.dropLast() }
        guard !name.isEmpty, name.contains(".") else { return nil }
        return suffixes.registrableDomain(of: String(name))
    }

    /// WebAuthn's registrable origin label: the leftmost label of the registrable domain (`shopping`
    /// for `a.shopping.github.io`), nil when there is no registrable domain.
    public func label(of domain: String) -> String? {
        guard let registrable = registrableDomain(of: domain),
              let first = registrable.split(separator: ".", omittingEmptySubsequences: false).first,
              !first.isEmpty else { return nil }
        return String(first)
    }
}
