/// Percent-decoding of URL parts; invalid escapes are kept literally, invalid UTF-8 is repaired.
public enum PercentDecoding {
    public static func decode(_ text: Substring, plusAsSpace: Bool = false) -> String {
        decodeBytes(text.utf8, plusAsSpace: plusAsSpace).map { String(decoding: $0, as: UTF8.self) } ?? String(text)
    }

    /// The decoded bytes, or nil when nothing needed decoding.
    static func decodeBytes<C: Collection<UInt8>>(_ bytes: C, plusAsSpace: Bool) -> [UInt8]? {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return nil
        }
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

    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
