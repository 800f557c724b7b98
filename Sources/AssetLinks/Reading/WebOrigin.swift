/// An http(s) URL's parts as Google's asset descriptors use them (assetlinks-spec.md §3.4, §3.5).
/// A web site is `scheme://host[:port]` and nothing else; an include is any absolute http(s) URL.
struct WebOrigin: Hashable, Sendable {
    var scheme: String
    var host: String
    var port: Int?
    /// Whatever follows the authority: path, query, fragment (empty for a bare site).
    var rest: Substring

    enum Problem: Error, Equatable {
        case noScheme, notHTTP(String), userinfo, emptyHost, badHost, badPort(String)
        case path, query, fragment

        var phrase: String {
            switch self {
            case .noScheme: "has no scheme; write https://host"
            case .notHTTP(let scheme): "uses the scheme \(scheme):, but only http and https are web assets"
            case .userinfo: "contains login information (user@); remove it"
            case .emptyHost: "has no host"
            case .badHost: "has a host with characters a host name cannot have"
            case .badPort(let port): "has the port \(port), which is not a number from 1 to 65535"
            case .path: "has a path; a site is only scheme://host[:port], not even a trailing /"
            case .query: "has a query; a site is only scheme://host[:port]"
            case .fragment: "has a fragment; a site is only scheme://host[:port]"
            }
        }
    }

    /// Parses `text`; `siteOnly` refuses a path, query or fragment (web targets), an include allows them.
    static func parse(_ text: String, siteOnly: Bool) -> Result<WebOrigin, Problem> {
        guard let colon = text.firstIndex(of: ":"), text[colon...].hasPrefix("://") else { return .failure(.noScheme) }
        let written = text[..<colon]
        let scheme = written.lowercased()
        guard scheme == "http" || scheme == "https" else {
            return .failure(scheme.isEmpty ? .noScheme : .notHTTP(String(written)))
        }
        let afterScheme = text[text.index(colon, offsetBy: 3)...]
        let delimiters: Set<Character> = ["/", "?", "#"]
        let authorityEnd = afterScheme.firstIndex { (c: Character) in delimiters.contains(c) } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let rest = afterScheme[authorityEnd...]
        if authority.contains("@") { return .failure(.userinfo) }
        var host = authority
        var port: Int?
        if authority.hasPrefix("[") {
            // An IPv6 literal: the port, if any, follows the closing bracket.
            guard let close = authority.firstIndex(of: "]") else { return .failure(.badHost) }
            host = authority[...close]
            let tail = authority[authority.index(after: close)...]
            if !tail.isEmpty {
                guard tail.hasPrefix(":") else { return .failure(.badHost) }
                guard let value = validPort(tail.dropFirst()) else { return .failure(.badPort(String(tail.dropFirst()))) }
                port = value
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            let digits = authority[authority.index(after: colon)...]
            guard let value = validPort(digits) else { return .failure(.badPort(String(digits))) }
            port = value
        }
        if host.isEmpty { return .failure(.emptyHost) }
        if !host.hasPrefix("[") {
            // One trailing dot is the fully qualified form of the same host; anything else must be a name.
            let name = host.hasSuffix(".") ? host.dropLast() : host
            guard !name.isEmpty, !name.hasPrefix("."), !name.contains(".."),
                  name.unicodeScalars.allSatisfy({ $0.value >= 0x80 || isHostByte($0) }) else { return .failure(.badHost) }
        }
        if siteOnly {
            if rest.hasPrefix("/") { return .failure(.path) }
            if rest.hasPrefix("?") { return .failure(.query) }
            if rest.hasPrefix("#") { return .failure(.fragment) }
        }
        return .success(WebOrigin(scheme: scheme, host: String(host), port: port, rest: rest))
    }

    /// `scheme://host[:port]`, lower case, without the trailing dot and the default port: two sites
    /// are the same asset exactly when these are equal (the conformance suite's site_cases).
    var normalizedSite: String {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(name)" + (port.map { $0 == defaultPort ? "" : ":\($0)" } ?? "")
    }

    private static func validPort(_ digits: Substring) -> Int? {
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(digits), (1...65_535).contains(value) else { return nil }
        return value
    }

    private static func isHostByte(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_": true
        default: false
        }
    }
}
