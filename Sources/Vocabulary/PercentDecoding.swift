import TextEncoding

/// Percent-decoding for `percentEncoded: false` rules: the URL is decoded, the pattern is not
/// (aasa-spec.md §8.2).
package enum PercentDecoding {
    /// Decodes `%XX` escapes as UTF-8 and returns code points. An invalid escape (`%zz`, a lone `%`)
    /// stays literal text, the best-supported reading of an undocumented case (§8.2); bytes that do not
    /// form valid UTF-8 become U+FFFD, as Swift's repairing decoder does.
    package static func decode(_ text: String) -> [UInt32] {
        decode(bytes: Array(text.utf8))
    }

    package static func decode<Bytes: Collection>(bytes raw: Bytes) -> [UInt32] where Bytes.Element == UInt8 {
        if !raw.contains(where: { $0 == UInt8(ascii: "%") || $0 >= 0x80 }) { return raw.map { UInt32($0) } }
        return String(decoding: decodedBytes(raw), as: UTF8.self).unicodeScalars.map(\.value)
    }

    /// The bytes with valid `%XX` escapes replaced by the byte they stand for.
    package static func decodedBytes<Bytes: Collection>(_ raw: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        guard raw.contains(UInt8(ascii: "%")) else { return Array(raw) }
        return PercentEscapes.decodedBytes(raw)
    }

    /// Whether `decodedBytes(raw)` equals `expected`, decoding on the fly instead of into a new array.
    package static func decodes<Bytes: RandomAccessCollection>(_ raw: Bytes, to expected: [UInt8]) -> Bool
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var index = raw.startIndex
        var matched = 0
        while index < raw.endIndex {
            var byte = raw[index]
            index += 1
            // The escape rule of `decodedBytes`: `%` followed by two hex digits.
            if byte == UInt8(ascii: "%"), index + 1 < raw.endIndex,
               let high = hexValue(raw[index]), let low = hexValue(raw[index + 1]) {
                byte = high << 4 | low
                index += 2
            }
            guard matched < expected.count, expected[matched] == byte else { return false }
            matched += 1
        }
        return matched == expected.count
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? { PercentEscapes.hexValue(byte) }
}
