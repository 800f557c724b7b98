import Vocabulary

/// A URL split the way `android.net.Uri` does and decoded the way dynamic rules compare it
/// (assetlinks-spec.md §4.5): `getPath()`, `getQuery()` and `getFragment()` are percent-decoded
/// (UTF-8; invalid bytes become U+FFFD), case is kept, and the query is split into parameters on `&`
/// (on `;` when that gives a single parameter), after decoding, as `UriRelativeFilter` does.
public struct AndroidURL: Hashable, Sendable {
    public let text: String
    /// Lower case, without a trailing dot; empty when the URL has no authority.
    public let scheme: String
    public let host: String
    /// The decoded path; `https://host` has the empty path (spec §4.5, [inferred]).
    let path: [UInt16]
    /// The decoded query's parameters; nil when the URL has no `?`.
    let queryParameters: [[UInt16]]?
    /// The decoded fragment; nil when the URL has no `#`.
    let fragment: [UInt16]?

    public init(_ text: String) {
        self.text = text
        var rest = Substring(text)
        var fragmentText: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragmentText = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        var queryText: Substring?
        if let mark = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var scheme = ""
        var host = ""
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/") {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
                var authority = rest[..<authorityEnd]
                rest = rest[authorityEnd...]
                if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
                if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
                    authority = authority[...close]
                } else if let portColon = authority.lastIndex(of: ":") {
                    authority = authority[..<portColon]
                }
                host = authority.lowercased()
                if host.hasSuffix(".") { host.removeLast() }
            }
        }
        self.scheme = scheme
        self.host = host
        path = Self.decoded(rest)
        fragment = fragmentText.map(Self.decoded)
        queryParameters = queryText.map { Self.parameters(Self.decoded($0)) }
    }

    private static func decoded(_ text: Substring) -> [UInt16] {
        let bytes = PercentDecoding.decodedBytes(text.utf8)
        return Array(String(decoding: bytes, as: UTF8.self).utf16)
    }

    /// Java's `query.split("&")` (trailing empty strings dropped), then `split(";")` when that gave one part.
    private static func parameters(_ query: [UInt16]) -> [[UInt16]] {
        func split(_ units: [UInt16], on separator: UInt8) -> [[UInt16]] {
            var parts = units.split(separator: UInt16(separator), omittingEmptySubsequences: false).map(Array.init)
            while parts.count > 1, parts.last?.isEmpty == true { parts.removeLast() }
            if parts.count == 1, parts[0].isEmpty, !units.isEmpty { parts.removeAll() }
            return parts
        }
        let parts = split(query, on: UInt8(ascii: "&"))
        return parts.count == 1 ? split(query, on: UInt8(ascii: ";")) : parts
    }

    public var isWebURL: Bool { (scheme == "https" || scheme == "http") && !host.isEmpty }

    public var decodedPath: String { String(decoding: path, as: UTF16.self) }
    public var decodedFragment: String? { fragment.map { String(decoding: $0, as: UTF16.self) } }
    public var decodedQueryParameters: [String]? { queryParameters?.map { String(decoding: $0, as: UTF16.self) } }
}
