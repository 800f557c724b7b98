import AssetLinks

/// A deliberately naive statement of Android's matching, for property tests: the pattern is converted
/// to `PatternMatcher` syntax (`*` → `.*`, `?` → `.`, literal `.` and `\` escaped) and walked character
/// by character as `PatternMatcher.matchGlobPattern` does, re-deciding everything at every step. The
/// only departure from that Java code is the one the spec makes (§4.4 rule 1): an escaped `.` is literal.
enum ReferenceMatcher {
    static let star = UInt16(UInt8(ascii: "*")), question = UInt16(UInt8(ascii: "?"))
    static let dot = UInt16(UInt8(ascii: ".")), backslash = UInt16(UInt8(ascii: "\\"))

    static func matches(_ pattern: String, _ input: [UInt16]) -> Bool {
        let units = Array(pattern.utf16)
        let wildcards = units.filter { $0 == star || $0 == question }.count
        if wildcards == 0 { return units == input }
        if wildcards == 1 && units.last == star { return input.starts(with: units.dropLast()) }
        var converted: [UInt16] = []
        for unit in units {
            switch unit {
            case star: converted += [dot, star]
            case question: converted.append(dot)
            case dot, backslash: converted += [backslash, unit]
            default: converted.append(unit)
            }
        }
        return glob(converted, input)
    }

    static func glob(_ p: [UInt16], _ m: [UInt16]) -> Bool {
        let np = p.count, nm = m.count
        if np == 0 { return nm == 0 }
        var ip = 0, im = 0
        var next = p[0]
        while ip < np && im < nm {
            var c = next
            ip += 1
            next = ip < np ? p[ip] : 0
            let escaped = c == backslash
            if escaped {
                c = next
                ip += 1
                next = ip < np ? p[ip] : 0
            }
            if next == star {
                if !escaped && c == dot {
                    if ip >= np - 1 { return true }
                    ip += 1
                    next = p[ip]
                    if next == backslash {
                        ip += 1
                        next = ip < np ? p[ip] : 0
                    }
                    repeat {
                        if m[im] == next { break }
                        im += 1
                    } while im < nm
                    if im == nm { return false }
                    ip += 1
                    next = ip < np ? p[ip] : 0
                    im += 1
                } else {
                    repeat {
                        if m[im] != c { break }
                        im += 1
                    } while im < nm
                    ip += 1
                    next = ip < np ? p[ip] : 0
                }
            } else {
                if (c != dot || escaped) && m[im] != c { return false }
                im += 1
            }
        }
        if ip >= np && im >= nm { return true }
        return ip == np - 2 && p[ip] == dot && p[ip + 1] == star
    }

    /// First rule whose filters all match decides (spec §4.3), written out longhand.
    static func decide(_ rules: [DynamicRule], url: String) -> DynamicRuleSet.Outcome {
        let parsed = AndroidURL(url)
        for (index, rule) in rules.enumerated() {
            if rule.path == nil && rule.fragment == nil && rule.query.isEmpty { continue }
            var ok = true
            if let path = rule.path, !matches(path, Array(parsed.decodedPath.utf16)) { ok = false }
            if let fragment = rule.fragment {
                if let value = parsed.decodedFragment { if !matches(fragment, Array(value.utf16)) { ok = false } } else { ok = false }
            }
            for entry in rule.query {
                let parameters = parsed.decodedQueryParameters ?? []
                if !parameters.contains(where: { matches(entry.name + "=" + entry.value, Array($0.utf16)) }) { ok = false }
            }
            if ok { return rule.exclude ? .exclude(rule: index) : .match(rule: index) }
        }
        return .noMatch
    }
}
