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
        guard let percent = Self.scan(bytes) else { return nil }
        hasPercent = percent
        let end = bytes.count
        var index = 0
        if let authority = Self.httpAuthorityStart(bytes) {
            // The scheme of nearly every universal link, found with one word compare.
            index = Self.first(in: bytes, from: authority, slash: true)
        } else if let colon = Self.schemeColon(bytes) {
            isUniversalLinkScheme = Self.isHTTP(bytes, colon)
            index = colon + 1
            if index + 1 < end, bytes[index] == UInt8(ascii: "/"), bytes[index + 1] == UInt8(ascii: "/") {
                index += 2
                index = Self.first(in: bytes, from: index, slash: true)
            }
        }
        let pathEnd = Self.first(in: bytes, from: index, slash: false)
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

    /// Whether some byte is `%`; nil when a byte is outside printable ASCII. Eight bytes per step; the
    /// last step re-reads the final eight bytes (overlap is harmless for an "any byte" test).
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        let count = bytes.count
        guard count >= 8 else {
            var outside = false
            var percent = false
            for byte in bytes {
                // Printable ASCII is 0x21...0x7E, so `byte - 0x21` stays below 0x5E.
                outside = outside || byte &- 0x21 >= 0x5E
                percent = percent || byte == UInt8(ascii: "%")
            }
            return outside ? nil : percent
        }
        var outside: UInt64 = 0
        var percent: UInt64 = 0
        var index = 0
        while true {
            let word = ByteLanes.load(bytes, at: Swift.min(index, count - 8))
            outside |= ByteLanes.outsidePrintable(word)
            percent |= ByteLanes.equal(word, UInt8(ascii: "%"))
            if index + 8 >= count { break }
            index += 8
        }
        return outside != 0 ? nil : percent != 0
    }

    /// Index of the first `?` or `#` (and `/` when `slash`) at or after `start`, or the end.
    private static func first(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, slash: Bool) -> Int {
        let count = bytes.count
        var index = start
        if count >= 8 {
            while index < count {
                // The last step reads the final eight bytes and ignores lanes before `index`.
                let at = Swift.min(index, count - 8)
                let word = ByteLanes.load(bytes, at: at)
                var hits = ByteLanes.equal(word, UInt8(ascii: "?")) | ByteLanes.equal(word, UInt8(ascii: "#"))
                if slash { hits |= ByteLanes.equal(word, UInt8(ascii: "/")) }
                hits &= ~0 &<< UInt64((index - at) &* 8)
                if hits != 0 { return at + ByteLanes.firstLane(hits) }
                index = at + 8
            }
            return count
        }
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || (slash && byte == UInt8(ascii: "/")) { return index }
            index += 1
        }
        return index
    }

    /// Where the authority starts when the URL begins with `https://` or `http://` (scheme in any case).
    private static func httpAuthorityStart(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 8 else { return nil }
        // OR-ing 0x20 lower-cases the scheme's letters, and no other byte maps onto `h`, `t`, `p`, `s`.
        let head = ByteLanes.load(bytes, at: 0)
        if head | 0x0000_0020_2020_2020 == 0x2F2F_3A73_7074_7468 { return 8 }                  // "https://"
        if (head | 0x0000_0000_2020_2020) & 0x00FF_FFFF_FFFF_FFFF == 0x002F_2F3A_7074_7468 { return 7 }  // "http://"
        return nil
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
