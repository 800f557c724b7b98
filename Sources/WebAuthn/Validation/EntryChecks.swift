import Vocabulary

/// The findings about one entry of `origins` on its own (passkeys-spec.md §3.2, §6.1).
enum EntryChecks {
    /// An Android app's origin is `android:apk-key-hash:<base64url>` (passkeys-spec.md §1): a URL
    /// with the scheme `android` and no host.
    static let appHashPath = "apk-key-hash:"

    static func findings(_ related: RelatedOrigin, rules: DomainRules, rpID: RelyingPartyID?) -> [Finding] {
        let entry = related.entry
        let quoted = "\"\(entry.text)\""
        guard let url = related.parsed else {
            let reason = if case .failure(let failure) = related.url { failure.reason } else { "" }
            return [WebAuthnFinding.originUnparseable.finding(at: entry.location,
                "\(quoted) is not a URL (\(reason)); browsers skip it.", hint: "Write the origin as https://host, e.g. https://shop.example.")]
        }
        if url.scheme == "android" && url.host == nil && url.path.lowercased().hasPrefix(appHashPath) {
            return [WebAuthnFinding.originAppHash.finding(at: entry.location,
                "\(quoted) is an Android app's origin: browsers skip it, and apps never read this file.",
                hint: "Remove it here; put it on your server's list of accepted origins instead.")]
        }
        var found: [Finding] = []
        func add(_ definition: FindingDefinition, _ message: String, _ hint: String) {
            found.append(definition.finding(at: entry.location, message, hint: hint))
        }
        if url.scheme != "https" {
            add(WebAuthnFinding.originNotHTTPS, "\(quoted) has the scheme \(url.scheme): it never matches a caller (WebAuthn callers are https)"
                    + (related.label.map { ", yet it spends the label \"\($0)\"." } ?? "."),
                "Write https://, or remove the entry.")
        }
        if url.origin != nil, related.label == nil {
            add(WebAuthnFinding.originNoRegistrableDomain, "\(quoted) has \(hostWords(url)); browsers skip it.",
                "List a site on a registrable domain, e.g. https://shop.example or https://name.github.io.")
        }
        if url.hasUserinfo {
            add(WebAuthnFinding.originUserinfo, "\(quoted) has a user name before the host; the origin ignores it.", "Remove the part up to and including @.")
        }
        if url.path == "/" && url.query == nil && url.fragment == nil {
            add(WebAuthnFinding.originTrailingSlash, "\(quoted) ends with /; it still matches, but an origin has no path.", "Drop the trailing /.")
        } else if !url.path.isEmpty || url.query != nil || url.fragment != nil {
            add(WebAuthnFinding.originHasPath, "\(quoted) has a path, query or fragment; browsers ignore it and compare the origin only.",
                "Write the bare origin, e.g. \(url.origin?.description ?? "https://shop.example").")
        }
        if let port = url.port, url.origin != nil {
            add(WebAuthnFinding.originPort, "\(quoted) names port \(port): only callers on that very port match.", "Confirm the port is the one your site serves.")
        }
        if url.defaultPortWritten {
            add(WebAuthnFinding.originDefaultPort, "\(quoted) writes out the scheme's default port; the origin is the same without it.", "Drop the port.")
        }
        if let domain = url.domain {
            domainFindings(domain, quoted: quoted, url: url, rpID: rpID, add: add)
        }
        if !url.changes.isEmpty, let origin = url.origin {
            add(WebAuthnFinding.originNotCanonical, "Parsing \(quoted) \(url.changes.sorted().map(\.rawValue).joined(separator: ", ")): browsers read it as \(origin).",
                "Write \(origin).")
        }
        return found
    }

    private static func domainFindings(_ domain: String, quoted: String, url: OriginURL, rpID: RelyingPartyID?,
                                       add: (FindingDefinition, String, String) -> Void) {
        if domain.contains("*") {
            add(WebAuthnFinding.originWildcard, "\(quoted) has * in its host: WebAuthn has no wildcards, so it is a literal host no site has.",
                "List each host, e.g. https://shop.example and https://www.shop.example.")
        }
        if domain.hasSuffix(".") {
            add(WebAuthnFinding.originTrailingDot, "\(quoted) ends its host with a dot: that is another origin than the host without it.",
                "Remove the dot.")
        }
        if let rpID, url.scheme == "https", rpID.covers(host: domain) {
            add(WebAuthnFinding.originIsRP, "\(quoted) is the RP ID \(rpID)'s own site, which needs no file, yet the entry spends a label.",
                "Remove it.")
        }
    }

    private static func hostWords(_ url: OriginURL) -> String {
        switch url.host {
        case .ipv4(let address), .ipv6(let address): "an IP address (\(address)) for host, and IP addresses have no registrable domain"
        case .domain(let name) where !name.contains("."): "the single-label host \(name), which has no registrable domain"
        case .domain(let name): "the host \(name), which is a public suffix (Public Suffix List, ICANN or private section)"
        case .opaque, nil: "no host"
        }
    }
}
