/// Byte ranges of a URL's parts, found without allocating. nil when the URL needs the general parser
/// `URLParts` (bytes a browser would escape before sending: controls, spaces, non-ASCII).
struct URLByteSplit {
    var isUniversalLinkScheme = true
    /// Some byte is `%`: decoded text may then differ from the encoded text.
    var hasPercent = false
    var path: Range<Int> = 0..<0
    var query: Range<Int> = 0..<0
    var fragment: Range<Int> = 0..<0

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        // One branch-free pass over every byte (the compiler vectorises it) instead of a test per byte
        // in each of the scans below: printable ASCII is 0x21...0x7E, so `byte - 0x21` stays below 0x5E.
        var outside: UInt8 = 0
        var percent: UInt8 = 0
        for byte in bytes {
            outside |= byte &- 0x21 >= 0x5E ? 1 : 0
            percent |= byte == UInt8(ascii: "%") ? 1 : 0
        }
        if outside != 0 { return nil }
        hasPercent = percent != 0
        let end = bytes.count
        var index = 0
        if let colon = Self.schemeColon(bytes) {
            isUniversalLinkScheme = Self.isHTTP(bytes, colon)
            index = colon + 1
            if index + 1 < end, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                while index < end, bytes[index] != UInt8(ascii: "/"), !Self.endsPath(bytes[index]) { index += 1 }
            }
        }
        var pathEnd = index
        while pathEnd < end, !Self.endsPath(bytes[pathEnd]) { pathEnd += 1 }
        path = index..<pathEnd
        var fragmentStart = pathEnd
        if pathEnd < end, bytes[pathEnd] == UInt8(ascii: "?") {
            var queryEnd = pathEnd + 1
            while queryEnd < end, bytes[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }
            query = (pathEnd + 1)..<queryEnd
            fragmentStart = queryEnd
        }
        if fragmentStart < end { fragment = (fragmentStart + 1)..<end }
    }

    /// `?` or `#`. Tested as one range check first: both sit below `@` (0x40) with most path bytes above.
    @inline(__always)
    private static func endsPath(_ byte: UInt8) -> Bool {
        byte < 0x40 && (byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#"))
    }

    /// Index of the colon ending an RFC 3986 scheme (ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )), if any.
    private static func schemeColon(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = bytes.first, Self.isAlpha(first) else { return nil }
        var cursor = 1
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: ":") { return cursor }
            guard isAlpha(byte) || (byte &- 0x30 < 10) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") else { return nil }
            cursor += 1
        }
        return nil
    }

    @inline(__always)
    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    /// Scheme bytes 0..<colon are `http` or `https`, in any case.
    private static func isHTTP(_ bytes: UnsafeBufferPointer<UInt8>, _ colon: Int) -> Bool {
        guard colon == 4 || colon == 5 else { return false }
        let http = bytes[0] | 0x20 == UInt8(ascii: "h") && bytes[1] | 0x20 == UInt8(ascii: "t")
            && bytes[2] | 0x20 == UInt8(ascii: "t") && bytes[3] | 0x20 == UInt8(ascii: "p")
        return http && (colon == 4 || bytes[4] | 0x20 == UInt8(ascii: "s"))
    }
}
