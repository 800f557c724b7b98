import LocatedJSON
import TextEncoding
import Vocabulary

/// Checks of a valid rule list as a whole and of each pattern: rules that can never decide, lists
/// that open nothing, and patterns that do not mean what they look like (assetlinks-spec.md §10.4).
enum DynamicRuleChecks {
    static func findings(_ rules: [DynamicRule]) -> [Finding] {
        var findings: [Finding] = []
        func at(_ rule: DynamicRule, _ key: String? = nil) -> SourceLocation {
            SourceLocation(pointer: rule.pointer + (key.map { "/" + escape($0) } ?? ""), line: rule.line, column: rule.column)
        }
        for rule in rules {
            if let path = rule.path { findings += patternFindings(path, component: "/", at: at(rule, "/")) }
            if let fragment = rule.fragment { findings += patternFindings(fragment, component: "#", at: at(rule, "#")) }
            for entry in rule.query {
                findings += patternFindings(entry.value, component: "?", at: at(rule, "?"))
            }
        }
        // Reachability: an earlier catch-all decides every URL; an identical earlier rule decides the same ones.
        for (j, rule) in rules.enumerated() where !rule.isEmpty {
            if let blocker = rules[..<j].firstIndex(where: { isCatchAll($0) || sameFilters($0, rule) }) {
                let why = isCatchAll(rules[blocker])
                    ? "rule \(blocker + 1) matches every URL first"
                    : "rule \(blocker + 1) has the same filters and comes first"
                findings.append(AndroidFinding.dynamicRuleUnreachable.finding(at: at(rule),
                    "Rule \(j + 1) never decides anything: \(why).",
                    hint: "Move it before rule \(blocker + 1), or remove it."))
            }
        }
        if let first = rules.first {
            if !rules.contains(where: { !$0.exclude && !$0.isEmpty }) {
                findings.append(AndroidFinding.dynamicRulesExcludeOnly.finding(at: at(first),
                    "No rule allows anything, so on Android 15+ no URL of this host opens the app.",
                    hint: "If you meant to exclude some paths only, end the list with {\"/\": \"*\"}."))
            }
            if let last = rules.last, !isCatchAll(last), !rules.contains(where: isCatchAll) {
                findings.append(AndroidFinding.dynamicRulesNoDefault.finding(at: at(last),
                    "The list ends without a catch-all rule: on Android 15+ a URL no rule matches opens in the browser.",
                    hint: "If every other URL should open the app, add {\"/\": \"*\"} as the last rule."))
            }
        }
        return findings
    }

    /// `{"/": "*"}` with or without exclude: matches every URL.
    static func isCatchAll(_ rule: DynamicRule) -> Bool {
        rule.path == "*" && rule.fragment == nil && rule.query.isEmpty
    }

    private static func sameFilters(_ a: DynamicRule, _ b: DynamicRule) -> Bool {
        a.path == b.path && a.fragment == b.fragment && Set(a.query) == Set(b.query) && !a.isEmpty
    }

    private static func patternFindings(_ pattern: String, component: String, at location: SourceLocation) -> [Finding] {
        var findings: [Finding] = []
        let quoted = JSONStringLiteral.quoted(pattern)
        if component == "/", let first = pattern.first, !["/", "*", "?"].contains(first) {
            findings.append(AndroidFinding.dynamicPathNoSlash.finding(at: location,
                "The path pattern \(quoted) does not start with /, so it never matches (every path starts with /).",
                hint: "Write \(JSONStringLiteral.quoted("/" + pattern))."))
        }
        if hasPercentEscape(pattern) {
            findings.append(AndroidFinding.dynamicPatternEncoded.finding(at: location,
                "The pattern \(quoted) contains a %XX escape, but Android compares the decoded URL, so the escape is matched literally and never occurs.",
                hint: "Write the decoded character (e.g. a space instead of %20)."))
        }
        let regex = pattern.filter { "[]{}+^$\\".contains($0) }
        if !regex.isEmpty {
            findings.append(AndroidFinding.dynamicPatternRegexSyntax.finding(at: location,
                "The pattern \(quoted) contains \(Set(regex).sorted().map { String($0) }.joined(separator: " ")): these are literal characters in dynamic rules, not regular-expression syntax.",
                hint: "Use * (any text) and ? (one character) only."))
        }
        if pattern.contains("*?") {
            findings.append(AndroidFinding.dynamicPatternStarQuestion.finding(at: location,
                "In \(quoted), the ? after * stands for a literal \".\" on Android (a platform quirk), not for one character.",
                hint: "Write ?* for \"one or more characters\"."))
        } else if DynamicPattern(pattern).hasInnerStar {
            findings.append(AndroidFinding.dynamicPatternNonbacktracking.finding(at: location,
                "In \(quoted), * stops at the first occurrence of the character after it and never backtracks, unlike a regular glob.",
                hint: "Test the URLs you care about with aasa-monitor match."))
        }
        if component == "/" && (pattern.contains("#") || looksLikeQuery(pattern)) {
            findings.append(AndroidFinding.dynamicPathHasQuery.finding(at: location,
                "The path pattern \(quoted) contains a query or fragment, which the path never contains.",
                hint: "Put query parameters under \"?\" and the fragment under \"#\"."))
        }
        return findings
    }

    private static func hasPercentEscape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3 else { return false }
        for i in 0..<(bytes.count - 2) where bytes[i] == UInt8(ascii: "%") {
            if isHex(bytes[i + 1]) && isHex(bytes[i + 2]) { return true }
        }
        return false
    }

    private static func isHex(_ b: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(b)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(b)
    }

    /// `?name=` in a path pattern: a query written into the path.
    private static func looksLikeQuery(_ pattern: String) -> Bool {
        guard let mark = pattern.firstIndex(of: "?") else { return false }
        let after = pattern[pattern.index(after: mark)...]
        guard let equals = after.firstIndex(of: "=") else { return false }
        return !after[..<equals].isEmpty && !after[..<equals].contains("/")
    }

    private static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Substring(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
