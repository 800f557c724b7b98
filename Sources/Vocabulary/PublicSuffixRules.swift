/// The Public Suffix List as the URL Standard uses it: ICANN and PRIVATE sections, wildcard (`*.ck`)
/// and exception (`!www.ck`) rules, and the default rule `*` (an unlisted TLD is a public suffix).
/// Supplied from outside the pure modules (libpsl in `PublicSuffixes`), like `IDNAConversion`, so no
/// core links a C library or reads the list from disk. Hosts are lower-case ASCII (Punycode), no
/// trailing dot, never an IP address: callers convert and filter first.
public protocol PublicSuffixRules: Sendable {
    /// The public suffix plus the one label to its left (`shopping.github.io` for
    /// `a.shopping.github.io`); nil when `host` is itself a public suffix (`co.uk`, `github.io`,
    /// `localhost` by the default rule).
    func registrableDomain(of host: String) -> String?

    /// Whether `host` is a public suffix by a rule the list names (`com`, `github.io`), not only by the
    /// default rule: `localhost` is not, so it stays usable as an RP ID on a developer's machine.
    func isListedPublicSuffix(_ host: String) -> Bool
}
