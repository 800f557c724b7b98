/// The slash handling Apple's own tool shows for paths (aasa-spec.md §8.4, ORACLE O-P), modelled as
/// one canonical form applied to both sides: the leading run of slashes becomes exactly one `/` (so
/// `abc` ≡ `/abc` ≡ `//abc`, and an empty path is `/`), trailing slashes are dropped (so `/buy` ≡
/// `/buy/` ≡ `/buy//`), and a pattern ending in `/*` may also match without that last segment
/// (`/buy/*` matches `/buy`, while `/a/*/c` still needs a middle segment and `/id/????` four
/// characters). Inner `//` is left as it is (unprobed, §8.4). The same applies to legacy `paths`,
/// which devices store as `/` patterns (§11, inferred).
///
/// One consequence of treating both sides alike: `*/checkout` is `/*/checkout`, which does not match
/// `/checkout` itself. Apple has not shown this case; it is the reading consistent with the probes.
enum PathNormalization {
    static func canonicalPath(_ units: [UInt32]) -> [UInt32] {
        var start = 0
        var end = units.count
        while start < end, units[start] == PatternUnit.slash { start += 1 }
        while end > start, units[end - 1] == PatternUnit.slash { end -= 1 }
        if start == 1 && end == units.count { return units }
        var out: [UInt32] = [PatternUnit.slash]
        out.append(contentsOf: units[start..<end])
        return out
    }

    /// The canonical pattern, and the pattern without a final `/*` when it has one.
    static func canonicalPattern(_ tokens: [PatternToken]) -> (main: [PatternToken], withoutFinalStar: [PatternToken]?) {
        let body = trimmed(tokens[...])
        let main = [PatternToken.unit(PatternUnit.slash)] + body
        guard body.count >= 2, body[body.count - 1] == .star, body[body.count - 2] == .unit(PatternUnit.slash) else {
            return (main, nil)
        }
        return (main, [PatternToken.unit(PatternUnit.slash)] + trimmed(body.dropLast(2)))
    }

    private static func trimmed(_ tokens: ArraySlice<PatternToken>) -> [PatternToken] {
        var slice = tokens
        while slice.first == .unit(PatternUnit.slash) { slice = slice.dropFirst() }
        while slice.last == .unit(PatternUnit.slash) { slice = slice.dropLast() }
        return Array(slice)
    }
}
