import TextEncoding

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
        return PercentEscapes.decodedBytes(bytes, plusAsSpace: plusAsSpace)
    }

    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8? { PercentEscapes.hexValue(c) }
}
