/// A site's robots.txt as Google's crawlers read it (RFC 9309 with Google's documented choices), for
/// one question: may a crawler fetch a path? Pure; never throws; any bytes in.
///
/// - Read as bytes, as Google's parser does: a leading UTF-8 byte-order mark is skipped; lines end at
///   LF, CR or CRLF (not at other Unicode line breaks); `#` starts a comment; a line is `field: value`
///   split at its first colon, spaces and tabs trimmed; field names are case-insensitive; unknown
///   fields (`Sitemap`, `Crawl-delay`) are ignored.
/// - A group is one or more `User-agent` lines followed by its rules; a crawler obeys every group
///   naming its product token, or else the `*` groups, or else nothing. A `User-agent` value names
///   the token it starts with — letters, `_` and `-`, compared case-insensitively (`Googlebot/2.1`
///   names googlebot) — or `*` when it is `*` alone or followed by a space.
/// - A rule's path is a prefix pattern with `*` (any run of characters) and a final `$` (end of path).
///   The longest matching pattern decides; between an `Allow` and a `Disallow` of equal length, the
///   `Allow` wins. An empty `Disallow` allows everything. Invalid UTF-8 in a pattern reads as U+FFFD
///   (such a pattern matches no path a URL has).
public struct RobotsRules: Hashable, Sendable {
    public struct Rule: Hashable, Sendable {
        public var allow: Bool
        public var pattern: String
        // Only the parser (and tests) build a rule: Swift's memberwise init, internal, is enough.
    }

    struct Group: Hashable, Sendable {
        var agents: [String]
        var rules: [Rule]
    }

    var groups: [Group]

    /// Google reads at most 500 KiB of a robots.txt and ignores the rest.
    public static let sizeLimit = 500 * 1024

    public init(_ bytes: [UInt8]) {
        var body = bytes.prefix(Self.sizeLimit)
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var groups: [Group] = []
        var current: Group?
        var inRules = false
        for line in Self.lines(body) {
            let content = line.prefix { $0 != UInt8(ascii: "#") }
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let field = Self.trimmed(content[..<colon]).map(Self.asciiLowercased)
            let value = Self.trimmed(content[(colon + 1)...])
            if field.elementsEqual("user-agent".utf8) {
                if inRules || current == nil {
                    if let current { groups.append(current) }
                    current = Group(agents: [], rules: [])
                    inRules = false
                }
                current?.agents.append(Self.productToken(value))
            } else if field.elementsEqual("allow".utf8) || field.elementsEqual("disallow".utf8) {
                guard current != nil else { continue }
                inRules = true
                // An empty Disallow says "nothing is disallowed"; an empty Allow says nothing.
                if !value.isEmpty {
                    current?.rules.append(Rule(allow: field.elementsEqual("allow".utf8), pattern: String(decoding: value, as: UTF8.self)))
                }
            }
        }
        if let current { groups.append(current) }
        self.groups = groups
    }

    /// The lines of `bytes`, ended by LF, CR or CRLF.
    static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex, index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else { index += 1; continue }
            lines.append(bytes[start..<index])
            index += byte == 0x0D && index + 1 < bytes.endIndex && bytes[index + 1] == 0x0A ? 2 : 1
            start = index
        }
        lines.append(bytes[start..<bytes.endIndex])
        return lines
    }

    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let space: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !space($0) }), let last = bytes.lastIndex(where: { !space($0) }) else { return [] }
        return bytes[first...last]
    }

    static func asciiLowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }

    /// The product token a `User-agent` value names (Google's `ExtractUserAgent`): `*` when the value is
    /// `*` alone or `*` and a space; otherwise its leading letters, `_` and `-`, lower-cased (empty
    /// when it starts with anything else, which names no crawler).
    static func productToken(_ value: ArraySlice<UInt8>) -> String {
        if value.first == UInt8(ascii: "*"), value.count == 1 || [0x20, 0x09].contains(value[value.startIndex + 1]) { return "*" }
        let token = value.prefix { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F || $0 == 0x2D }
        return String(decoding: token.map(asciiLowercased), as: UTF8.self)
    }

    /// The rule that decides `path` for the crawler whose product token is `agent` (`googlebot`, or `*`
    /// for a crawler no group names); nil when no rule matches (the path is allowed).
    public func decidingRule(for path: String, agent: String) -> Rule? {
        let token = agent.lowercased()
        var obeyed = groups.filter { $0.agents.contains(token) }
        if obeyed.isEmpty { obeyed = groups.filter { $0.agents.contains("*") } }
        var best: Rule?
        for rule in obeyed.flatMap(\.rules) where Self.matches(rule.pattern, path) {
            guard let current = best else { best = rule; continue }
            if rule.pattern.utf8.count > current.pattern.utf8.count
                || (rule.pattern.utf8.count == current.pattern.utf8.count && rule.allow && !current.allow) {
                best = rule
            }
        }
        return best
    }

    /// Some group names `agent` itself (otherwise it obeys the `*` groups).
    public func namesAgent(_ agent: String) -> Bool { groups.contains { $0.agents.contains(agent.lowercased()) } }

    public func allows(_ path: String, agent: String) -> Bool { decidingRule(for: path, agent: agent)?.allow ?? true }

    /// `pattern` matches a prefix of `path` (the whole path when it ends with `$`): a prefix match is a
    /// whole match of the pattern with `*` appended. Greedy with one remembered star, so a hostile
    /// pattern costs at most pattern × path steps.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        var p = Array(pattern.utf8)
        if p.last == UInt8(ascii: "$") { p.removeLast() } else { p.append(UInt8(ascii: "*")) }
        let s = Array(path.utf8)
        var i = 0, j = 0
        var star: Int?, mark = 0
        while j < s.count {
            if i < p.count, p[i] == UInt8(ascii: "*") {
                star = i
                mark = j
                i += 1
            } else if i < p.count, p[i] == s[j] {
                i += 1
                j += 1
            } else if let star {
                i = star + 1
                mark += 1
                j = mark
            } else {
                return false
            }
        }
        while i < p.count, p[i] == UInt8(ascii: "*") { i += 1 }
        return i == p.count
    }
}
