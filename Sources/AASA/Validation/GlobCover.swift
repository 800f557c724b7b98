import LocatedJSON

/// Decides, for the validator, whether an earlier pattern matches everything a later literal
/// pattern matches. Deliberately conservative: it answers true only when sure, so an
/// `unreachable-rule` finding is never a false alarm. (The real matcher is aasa-match's.)
enum GlobCover {
    /// `*`, `**`…: matches every text. The empty pattern matches only the empty text.
    static func isAllStars(_ pattern: String) -> Bool {
        !pattern.isEmpty && pattern.utf8.allSatisfy { $0 == UInt8(ascii: "*") }
    }

    /// Leading slashes are optional and a run counts as one (§8.4 rules 1–2): the pattern with exactly
    /// one leading slash. That is the pattern itself in the usual case, so no copy is made then.
    static func normalisedPath(_ pattern: String) -> String {
        var slashes = 0
        for byte in pattern.utf8 {
            guard byte == UInt8(ascii: "/") else { break }
            slashes += 1
        }
        if slashes == 1 { return pattern }
        return "/" + String(decoding: pattern.utf8.dropFirst(slashes), as: UTF8.self)
    }

    /// The path without its leading slashes is only stars: `"*"` and `"/*"` count (rule 4 makes `/*`
    /// match the empty path too), `"/"` does not: it matches only the root path, as the matcher says.
    static func isAllStarsPath(_ pattern: String) -> Bool {
        let body = pattern.utf8.drop { $0 == UInt8(ascii: "/") }
        return !body.isEmpty && body.allSatisfy { $0 == UInt8(ascii: "*") }
    }

    static func isLiteral(_ pattern: String) -> Bool {
        !pattern.containsUTF8Byte { $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "$") }
    }

    /// Does `earlier` cover every text `later` matches? True for identical patterns, all-star
    /// patterns, and literal `later` texts that `earlier` glob-matches.
    static func covers(_ earlier: String, _ later: String, caseSensitive: Bool) -> Bool {
        if isAllStars(earlier) { return true }
        let e = caseSensitive ? earlier : earlier.lowercased()
        let l = caseSensitive ? later : later.lowercased()
        if e == l { return true }
        guard isLiteral(l), !Array(e.utf8).containsSequence("$(") else { return false }
        return globMatches(Array(e.unicodeScalars), Array(l.unicodeScalars))
    }

    /// `*` any run, `?` one character; linear-space, O(n·m) worst case with the classic
    /// last-star backtrack (no exponential blow-up).
    static func globMatches(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        var p = 0, t = 0
        var starP = -1, starT = 0
        while t < text.count {
            if p < pattern.count && (pattern[p] == "?" || pattern[p] == text[t]) && pattern[p] != "*" {
                p += 1
                t += 1
            } else if p < pattern.count && pattern[p] == "*" {
                starP = p
                starT = t
                p += 1
            } else if starP >= 0 {
                p = starP + 1
                starT += 1
                t = starT
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }

    static func queryCovers(_ earlier: QuerySpec, _ later: QuerySpec, caseSensitive: Bool) -> Bool {
        if EffectiveRule.queryIsUnconstrained(earlier) { return true }
        switch (earlier, later) {
        case (.string(let e), .string(let l)):
            return covers(e, l, caseSensitive: caseSensitive)
        case (.items(let e), .items(let l)):
            // Every constraint of the earlier rule must hold for whatever the later one accepts.
            return e.allSatisfy { item in
                if isAllStars(item.pattern) { return true }
                guard let other = l.first(where: { $0.name == item.name }) else { return false }
                return covers(item.pattern, other.pattern, caseSensitive: caseSensitive)
            }
        default:
            return earlier == later
        }
    }
}
