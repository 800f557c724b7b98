import Vocabulary

/// An origin as the URL Standard defines it for WebAuthn: scheme, ASCII host and port, the port nil
/// when it is the scheme's default. Two origins are the same origin when all three are equal.
public struct TupleOrigin: Hashable, Sendable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    public let port: Int?

    public var description: String { "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "") }
}

/// One string parsed as the URL Standard's parser does (passkeys-spec.md §3.2.1), reduced to what
/// the related-origins rules need: the origin, and what the text carried that the origin drops
/// (path, query, fragment, userinfo, a written-out default port) or that parsing changed.
///
/// Not a general URL parser: paths are not normalised and opaque paths are not percent-encoded; only
/// scheme, host and port decide anything here. Hosts go through `DomainRules.idna`, never by hand.
public struct OriginURL: Hashable, Sendable {
    public enum Host: Hashable, Sendable {
        /// Lower-case ASCII (Punycode), as written otherwise (a trailing dot or `*` kept).
        case domain(String)
        case ipv4(String)
        case ipv6(String)
        /// A non-special URL's host (`other://a.com`): not a domain, so no registrable domain and no
        /// tuple origin.
        case opaque(String)
    }

    /// What parsing changed about the text, for `webauthn-origin-not-canonical`.
    public enum Change: String, Hashable, Sendable, Comparable {
        case trimmed = "trimmed white space or control characters"
        case lowerCased = "lower-cased the scheme or host"
        case punycoded = "converted the host to Punycode"
        case percentDecoded = "decoded %-escapes in the host"
        case slashes = "read the slashes after the scheme as //"

        public static func < (lhs: Change, rhs: Change) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var scheme: String
    /// Nil for a URL without an authority (`android:apk-key-hash:…`, `mailto:…`, `file:` URLs).
    public var host: Host?
    /// Nil when absent or the scheme's default.
    public var port: Int?
    /// The scheme's default port was written out (`https://a.example:443`).
    public var defaultPortWritten: Bool
    /// A `user@` or `user:password@` part came before the host.
    public var hasUserinfo: Bool
    /// The path as written: "" when there is none, "/" for a bare slash.
    public var path: String
    public var query: String?
    public var fragment: String?
    public var changes: Set<Change>

    /// Schemes whose URLs have hosts that are domains, and their default ports. `file` is special too,
    /// but browsers give file URLs an opaque origin, so it is left out: no origin, no label.
    static let specialPorts: [String: Int] = ["https": 443, "http": 80, "wss": 443, "ws": 80, "ftp": 21]

    /// The tuple origin; nil for an opaque one (non-special scheme, no host, file URL).
    public var origin: TupleOrigin? {
        guard Self.specialPorts[scheme] != nil, let host else { return nil }
        switch host {
        case .domain(let name), .ipv4(let name), .ipv6(let name): return TupleOrigin(scheme: scheme, host: name, port: port)
        case .opaque: return nil
        }
    }

    /// The domain host, nil for an IP address, an opaque host or none.
    public var domain: String? {
        if case .domain(let name) = host { return name }
        return nil
    }
}

/// Why a string is no URL, in words for the person who wrote it.
public struct OriginURLFailure: Error, Hashable, Sendable {
    public let reason: String
}

extension OriginURL {
    /// Parses `input` like the URL Standard's basic URL parser without a base URL. Never traps.
    public static func parse(_ input: String, rules: DomainRules) -> Result<OriginURL, OriginURLFailure> {
        var changes = Set<Change>()
        let text = trimmed(input, changes: &changes)
        guard let colon = schemeEnd(text) else {
            return .failure(OriginURLFailure(reason: "it has no scheme; an origin is written https://host, e.g. https://shop.example"))
        }
        let writtenScheme = String(text[..<colon])
        let scheme = writtenScheme.lowercased()
        if scheme != writtenScheme { changes.insert(.lowerCased) }
        var rest = text[text.index(after: colon)...]
        guard specialPorts[scheme] != nil else {
            return .success(nonSpecial(scheme: scheme, rest: rest, changes: changes))
        }
        let slashes = rest.prefix { $0 == "/" || $0 == "\\" }
        if slashes != "//" { changes.insert(.slashes) }
        rest = rest.dropFirst(slashes.count)
        let authorityEnd = rest.firstIndex { "/\\?#".contains($0) } ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        var url = OriginURL(scheme: scheme, host: nil, port: nil, defaultPortWritten: false, hasUserinfo: false,
                            path: "", query: nil, fragment: nil, changes: changes)
        if let at = authority.lastIndex(of: "@") {
            url.hasUserinfo = true
            authority = authority[authority.index(after: at)...]
        }
        let (hostText, portText) = splitPort(authority)
        if let portText {
            switch parsePort(portText) {
            case .failure(let failure): return .failure(failure)
            case .success(let port):
                if port == specialPorts[scheme] { url.defaultPortWritten = true } else { url.port = port }
            }
        }
        switch parseHost(hostText, rules: rules, changes: &url.changes) {
        case .failure(let failure): return .failure(failure)
        case .success(let host): url.host = host
        }
        splitPathQueryFragment(rest[authorityEnd...], into: &url)
        return .success(url)
    }

    /// Leading and trailing C0 controls and spaces go, and tabs and newlines anywhere.
    private static func trimmed(_ input: String, changes: inout Set<Change>) -> String {
        let scalars = input.unicodeScalars
        let kept = scalars.drop { $0.value <= 0x20 }.reversed().drop { $0.value <= 0x20 }.reversed()
            .filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: kept)
        if text.count != scalars.count { changes.insert(.trimmed) }
        return String(text)
    }

    /// The index of the colon ending a scheme (an ASCII letter, then letters, digits, + - .), nil when none.
    private static func schemeEnd(_ text: String) -> String.Index? {
        guard let first = text.unicodeScalars.first, first.isASCIILetter else { return nil }
        for index in text.indices {
            let character = text[index]
            if character == ":" { return index }
            guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                  scalar.isASCIILetter || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar) else { return nil }
        }
        return nil
    }

    /// A non-special URL: `scheme://host…` has an opaque host, anything else none (`android:apk-key-hash:…`).
    private static func nonSpecial(scheme: String, rest: Substring, changes: Set<Change>) -> OriginURL {
        var url = OriginURL(scheme: scheme, host: nil, port: nil, defaultPortWritten: false, hasUserinfo: false,
                            path: "", query: nil, fragment: nil, changes: changes)
        var remainder = rest
        if rest.hasPrefix("//") {
            let afterSlashes = rest.dropFirst(2)
            let end = afterSlashes.firstIndex { "/?#".contains($0) } ?? afterSlashes.endIndex
            var authority = afterSlashes[..<end]
            if let at = authority.lastIndex(of: "@") {
                url.hasUserinfo = true
                authority = authority[authority.index(after: at)...]
            }
            url.host = .opaque(String(splitPort(authority).host))
            remainder = afterSlashes[end...]
        }
        splitPathQueryFragment(remainder, into: &url)
        return url
    }

    /// `host:port` → (host, port text); a bracketed IPv6 address keeps its colons.
    private static func splitPort(_ authority: Substring) -> (host: Substring, port: Substring?) {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let after = authority[authority.index(after: close)...]
            let host = authority[...close]
            return after.hasPrefix(":") ? (host, after.dropFirst()) : (after.isEmpty ? (host, nil) : (authority, nil))
        }
        guard let colon = authority.lastIndex(of: ":") else { return (authority, nil) }
        return (authority[..<colon], authority[authority.index(after: colon)...])
    }

    private static func parsePort(_ text: Substring) -> Result<Int?, OriginURLFailure> {
        if text.isEmpty { return .success(nil) }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(OriginURLFailure(reason: "the port \"\(text)\" is not a number"))
        }
        let digits = text.drop { $0 == "0" }
        guard digits.count <= 5, let port = Int(digits.isEmpty ? "0" : String(digits)), port <= 65_535 else {
            return .failure(OriginURLFailure(reason: "the port \(text) is above 65535"))
        }
        return .success(port)
    }

    private static func splitPathQueryFragment(_ rest: Substring, into url: inout OriginURL) {
        var rest = rest
        if let hash = rest.firstIndex(of: "#") {
            url.fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            url.query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        url.path = String(rest)
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
