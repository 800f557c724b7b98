import Testing
@testable import AASA

/// The word-at-a-time URL splitter against a byte-at-a-time statement of the same rules.
struct URLByteSplitTests {
    struct Expected: Equatable {
        var universal: Bool
        var percent: Bool
        var path: Range<Int>
        var query: Range<Int>
        var fragment: Range<Int>
    }

    /// The rules, one byte at a time: printable ASCII only; a scheme `ALPHA *(ALPHA / DIGIT / + - .)`
    /// ending in `:`; an authority after `//` up to `/ ? #`; the path up to `? #`; the query up to `#`.
    static func naive(_ bytes: [UInt8]) -> Expected? {
        if bytes.contains(where: { $0 < 0x21 || $0 > 0x7E }) { return nil }
        func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        var index = 0
        var universal = true
        if let first = bytes.first, isAlpha(first),
           let colon = bytes.firstIndex(where: { !(isAlpha($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E) }),
           bytes[colon] == UInt8(ascii: ":") {
            let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
            universal = scheme == "http" || scheme == "https"
            index = colon + 1
            if bytes[index...].starts(with: Array("//".utf8)) {
                index += 2
                while index < bytes.count, !"/?#".utf8.contains(bytes[index]) { index += 1 }
            }
        }
        var pathEnd = index
        while pathEnd < bytes.count, !"?#".utf8.contains(bytes[pathEnd]) { pathEnd += 1 }
        var query = 0..<0
        var fragmentStart = pathEnd
        if pathEnd < bytes.count, bytes[pathEnd] == UInt8(ascii: "?") {
            var queryEnd = pathEnd + 1
            while queryEnd < bytes.count, bytes[queryEnd] != UInt8(ascii: "#") { queryEnd += 1 }
            query = (pathEnd + 1)..<queryEnd
            fragmentStart = queryEnd
        }
        let fragment = fragmentStart < bytes.count ? (fragmentStart + 1)..<bytes.count : 0..<0
        return Expected(universal: universal, percent: bytes.contains(UInt8(ascii: "%")), path: index..<pathEnd,
                        query: query, fragment: fragment)
    }

    static func split(_ bytes: [UInt8]) -> Expected? {
        bytes.withUnsafeBufferPointer { buffer in
            URLByteSplit(buffer).map {
                Expected(universal: $0.isUniversalLinkScheme, percent: $0.hasPercent, path: $0.path, query: $0.query,
                         fragment: $0.fragment)
            }
        }
    }

    @Test func agreesWithByteAtATimeRules() {
        var rng = SeededGenerator(state: 0x5A11)
        let starts = ["https://example.com", "HTTP://a.b", "HtTpS://x", "http:/x", "https:/", "https//x", "http://", "hTTp://h", "httpx://a", "ftp://x", "h:", "https:", "", "a1+.-:", "1a:", "//h/p"]
        // Every byte that ends a lane test, bytes just inside and outside printable ASCII, and delimiters.
        // Also each delimiter xor 1 (`.` `>` `"`), which a borrow-based lane test mistakes for a delimiter next to a real one.
        let bytes: [UInt8] = [0x00, 0x09, 0x20, 0x21, 0x25, 0x7E, 0x7F, 0x80, 0xC3, 0xFF, 0x2F, 0x3F, 0x23, 0x61, 0x41, 0x3A,
                              0x2E, 0x3E, 0x22, 0x24, 0x01]
        for _ in 0..<20000 {
            var url = Array((starts.randomElement(using: &rng) ?? "").utf8)
            for _ in 0..<Int.random(in: 0...24, using: &rng) {
                url.append(Int.random(in: 0..<4, using: &rng) == 0 ? bytes.randomElement(using: &rng) ?? 0
                           : UInt8(ascii: "a") + UInt8.random(in: 0..<3, using: &rng))
            }
            let expected = Self.naive(url)
            #expect(Self.split(url) == expected, "bytes \(url)")
            if Self.split(url) != expected { return }
        }
    }

    @Test func delimiterLookalikesAfterDelimiters() {
        for url in ["http://.", "http://./x", "http://a//.", "https://h/?>", "https://h/##\"", "x??>>##\"\"//.."] {
            #expect(Self.split(Array(url.utf8)) == Self.naive(Array(url.utf8)), "\(url)")
        }
    }

    @Test func everyLaneDetectsEveryNonPrintableByte() {
        for length in 1...17 {
            for position in 0..<length {
                for byte in [UInt8(0x00), 0x20, 0x7F, 0x80, 0xFF] {
                    var url = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    url[position] = byte
                    #expect(Self.split(url) == nil, "byte \(byte) at \(position) of \(length)")
                }
                var url = [UInt8](repeating: UInt8(ascii: "~"), count: length)
                url[position] = UInt8(ascii: "%")
                #expect(Self.split(url)?.percent == true)
            }
        }
    }
}
