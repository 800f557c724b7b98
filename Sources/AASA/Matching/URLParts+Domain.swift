extension URLParts {
    /// Whether a device would consult `domain`'s file for this URL: the host is the domain itself, or a
    /// subdomain reached through a `*.domain` entitlement, whose file is served by the parent
    /// (aasa-spec.md §2.1, §12 step 3). A bare path has no host and is taken as the domain's own.
    /// Hosts compare case-insensitively, without a trailing dot; an IDN must be given in Punycode on both sides.
    public func isCovered(byFileOf domain: String) -> Bool {
        guard let host else { return true }
        var domain = domain.lowercased()
        if domain.hasSuffix(".") { domain.removeLast() }
        if domain.hasPrefix("*.") { domain.removeFirst(2) }
        return host == domain || host.hasSuffix("." + domain)
    }
}
