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
        // Bytes, not Characters: the delimiters are ASCII, and grapheme breaking costs more than the
        // whole match (it was 60% of a decision before).
        var contiguous = text
        let parts = contiguous.withUTF8 { Self.split($0) }
        scheme = parts.scheme
        host = parts.host
        path = parts.path
        fragment = parts.fragment
        queryParameters = parts.query.map(Self.parameters)
    }

    private struct Parts {
        var scheme = "", host = "", path: [UInt16] = [], fragment: [UInt16]?, query: [UInt16]?
    }

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> Parts {
        var end = bytes.count
        var fragmentRange: Range<Int>?
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) {
            fragmentRange = (hash + 1)..<end
            end = hash
        }
        var queryRange: Range<Int>?
        if let mark = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            queryRange = (mark + 1)..<end
            end = mark
        }
        var start = 0
        var scheme = ""
        var host = ""
        if let colon = bytes[..<end].firstIndex(of: UInt8(ascii: ":")),
           !bytes[..<colon].contains(UInt8(ascii: "/")) {
            scheme = lowercased(bytes[..<colon])
            start = colon + 1
            if bytes[start..<end].starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
                start += 2
                let authorityEnd = bytes[start..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
                var authority = bytes[start..<authorityEnd]
                start = authorityEnd
                if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
                if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
                    authority = authority[...close]
                } else if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
                    authority = authority[..<portColon]
                }
                host = lowercased(authority)
                if host.hasSuffix(".") { host.removeLast() }
            }
        }
        return Parts(scheme: scheme, host: host, path: decoded(bytes[start..<end]), fragment: fragmentRange.map { decoded(bytes[$0]) },
                     query: queryRange.map { decoded(bytes[$0]) })
    }

    /// ASCII lower case (schemes and host names; IDN hosts are compared in Punycode).
    private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func decoded(_ raw: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt16] {
        let bytes = raw.contains(UInt8(ascii: "%")) ? PercentDecoding.decodedBytes(raw) : Array(raw)
        // ASCII is its own UTF-16; anything else goes through String, which also repairs invalid UTF-8
        // to U+FFFD as Android's decoder does.
        if !bytes.contains(where: { $0 >= 0x80 }) { return bytes.map(UInt16.init) }
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
