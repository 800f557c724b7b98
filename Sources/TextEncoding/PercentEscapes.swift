/// The lenient `%XX` decoding both URL readers share — the HTTP server's (paths, query values) and the
/// matcher's (aasa-spec.md §8.2): a valid escape becomes its byte, an invalid one (`%zz`, a lone `%`,
/// `%4` at the end) stays literal text. Web's form decoder is strict instead (it refuses malformed
/// input), so it is a different function on purpose.
public enum PercentEscapes {
    /// `bytes` with every valid `%XX` replaced by the byte it stands for, and `+` by a space when
    /// `plusAsSpace` (HTML forms and query strings).
    // Inlinable so the request parser and the matcher get a version specialised to their collection,
    // as they did when each had its own copy.
    @inlinable public static func decodedBytes<C: Collection<UInt8>>(_ bytes: C, plusAsSpace: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let c = bytes[i]
            if c == UInt8(ascii: "%") {
                let h1 = bytes.index(after: i)
                if h1 != bytes.endIndex {
                    let h2 = bytes.index(after: h1)
                    if h2 != bytes.endIndex, let hi = hexValue(bytes[h1]), let lo = hexValue(bytes[h2]) {
                        out.append(hi << 4 | lo)
                        i = bytes.index(after: h2)
                        continue
                    }
                }
                out.append(c)
            } else if plusAsSpace && c == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else {
                out.append(c)
            }
            i = bytes.index(after: i)
        }
        return out
    }

    /// The value of one hex digit of either case, nil for any other byte.
    @inlinable @inline(__always) public static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
