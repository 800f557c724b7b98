/// Lower-case hexadecimal, the one spelling the product writes: content digests (`association_versions.sha256`),
/// tokens, CSRF values, request IDs and the flash cookie all go through here.
public enum Hex {
    /// Two lower-case digits per byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of lower-case hex as `encode` writes it; nil for anything else (odd length, upper case,
    /// other characters), so a value we did not write is refused rather than read another way.
    public static func decode(_ text: Substring) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        func value(_ d: UInt8) -> UInt8? {
            switch d {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        for i in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[i]), let low = value(digits[i + 1]) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }
}
