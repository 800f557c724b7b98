/// Case folding for `caseSensitive: false` rules (aasa-spec.md §8.3).
///
/// Apple folds the whole rule: path, query, fragment and the values of substitution variables. The
/// exact Unicode folding Apple uses is not documented (§17 item 4), so we fold one code point to one
/// code point (lower-case of upper-case, which also maps final sigma to sigma), and leave a code point
/// alone when its mapping would change the length: `?` must keep counting one code point.
enum CaseFolding {
    @inline(__always)
    static func fold(_ unit: UInt32) -> UInt32 {
        if unit < 0x80 {
            // ASCII fast path: the hot case, since encoded URLs are pure ASCII.
            return (unit &- 0x41) < 26 ? unit | 0x20 : unit
        }
        return foldNonASCII(unit)
    }

    private static func foldNonASCII(_ unit: UInt32) -> UInt32 {
        guard unit < 0x11_0000, let scalar = Unicode.Scalar(unit) else { return unit }
        let upper = scalar.properties.uppercaseMapping.unicodeScalars
        guard upper.count == 1, let up = upper.first else { return singleLower(scalar) ?? unit }
        return singleLower(up) ?? unit
    }

    private static func singleLower(_ scalar: Unicode.Scalar) -> UInt32? {
        let lower = scalar.properties.lowercaseMapping.unicodeScalars
        guard lower.count == 1, let low = lower.first else { return nil }
        return low.value
    }
}
