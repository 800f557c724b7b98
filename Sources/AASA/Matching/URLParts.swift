/// A URL split into the parts a device matches (aasa-spec.md §12 step 5): path, query and fragment as
/// transmitted, still percent-encoded.
///
/// Split by hand over UTF-8 bytes rather than with `URLComponents`: it is on the hot path of every
/// match, and Foundation would normalise or reject inputs (spaces, raw Unicode) that a pasted URL may
/// contain. Never fails: anything after the authority is kept as text. Characters a browser would
/// percent-encode before sending (non-ASCII, spaces, controls) are encoded here the same way
/// (UTF-8, upper-case hex), so a raw Unicode URL matches as the encoded one a device receives.
public struct URLParts: Hashable, Sendable, Codable {
    /// Lower-cased scheme; nil for a bare path such as `/buy/42?x=1`.
    public var scheme: String?
    /// Lower-cased host without port or user info; nil when the URL has no authority.
    public var host: String?
    /// The path as transmitted; "" when the URL has none (matched as `/`).
    public var path: String
    /// Text after the first `?` up to `#`; nil when there is no `?` (matched as "").
    public var query: String?
    /// Text after the first `#`; nil when there is no `#` (matched as "").
    public var fragment: String?

    public init(scheme: String? = nil, host: String? = nil, path: String, query: String? = nil, fragment: String? = nil) {
        self.scheme = scheme
        self.host = host
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    public init(parsing url: String) {
        let bytes = Array(url.utf8)
        var start = 0
        var end = bytes.count
        // Surrounding whitespace comes from copy and paste, never from a link.
        while start < end, Self.isSpace(bytes[start]) { start += 1 }
        while end > start, Self.isSpace(bytes[end - 1]) { end -= 1 }

        var index = start
        var scheme: String?
        var host: String?
        if let colon = Self.schemeEnd(bytes, from: start, to: end) {
            scheme = String(decoding: bytes[start..<colon], as: UTF8.self).lowercased()
            index = colon + 1
            if index + 1 < end, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                var authorityEnd = index
                while authorityEnd < end, !Self.endsAuthority(bytes[authorityEnd]) { authorityEnd += 1 }
                host = Self.host(of: bytes[index..<authorityEnd])
                index = authorityEnd
            }
        }

        var pathEnd = index
        while pathEnd < end, bytes[pathEnd] != UInt8(ascii: "?"), bytes[pathEnd] != UInt8(ascii: "#") { pathEnd += 1 }
        var query: String?
        var fragment: String?
        var fragmentStart = end
        if pathEnd < end, bytes[pathEnd] == UInt8(ascii: "?") {
            var queryEnd = pathEnd + 1
            while queryEnd < end, bytes[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }
            query = Self.transmitted(bytes[(pathEnd + 1)..<queryEnd])
            fragmentStart = queryEnd
        } else {
            fragmentStart = pathEnd
        }
        if fragmentStart < end {
            fragment = Self.transmitted(bytes[(fragmentStart + 1)..<end])
        }
        self.init(scheme: scheme, host: host, path: Self.transmitted(bytes[index..<pathEnd]), query: query,
                  fragment: fragment)
    }

    /// Only `http` and `https` URLs can be universal links (aasa-spec.md §12 step 1). A bare path has
    /// no scheme and is accepted, so the URL tester can be given just `/buy/42`.
    public var canBeUniversalLink: Bool {
        guard let scheme else { return true }
        return scheme == "https" || scheme == "http"
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
    }

    /// RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) followed by ":".
    private static func schemeEnd(_ bytes: [UInt8], from start: Int, to end: Int) -> Int? {
        var index = start
        guard index < end, isAlpha(bytes[index]) else { return nil }
        index += 1
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") { return index }
            guard isAlpha(byte) || (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return nil }
            index += 1
        }
        return nil
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func host(of authority: ArraySlice<UInt8>) -> String? {
        var slice = authority
        if let at = slice.lastIndex(of: UInt8(ascii: "@")) { slice = slice[(at + 1)...] }
        if slice.first == UInt8(ascii: "[") {
            // IPv6 literal: the port colon comes after the closing bracket.
            if let close = slice.firstIndex(of: UInt8(ascii: "]")) { slice = slice[...close] }
        } else if let colon = slice.firstIndex(of: UInt8(ascii: ":")) {
            // An explicit port is ignored: whether devices accept one is unknown (aasa-spec.md §17 item 12).
            slice = slice[..<colon]
        }
        var text = String(decoding: slice, as: UTF8.self).lowercased()
        // A fully qualified name with its trailing dot is the same host.
        if text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty ? nil : text
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The text a browser would transmit: bytes that may not appear raw in a URL are percent-encoded.
    private static func transmitted(_ bytes: ArraySlice<UInt8>) -> String {
        if !bytes.contains(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3)
        for byte in bytes {
            if byte <= 0x20 || byte >= 0x7F {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
