/// A site's robots.txt as Google's crawlers read it (RFC 9309 with Google's documented choices), for
/// one question: may a crawler fetch a path? Pure; never throws; any bytes in.
///
/// - Lines are `field: value`; `#` starts a comment; field names are case-insensitive; unknown fields
///   (`Sitemap`, `Crawl-delay`) are ignored.
/// - A group is one or more `User-agent` lines followed by its rules; a crawler obeys every group
///   naming its product token (case-insensitive), or else the `*` groups, or else nothing.
/// - A rule's path is a prefix pattern with `*` (any run of characters) and a final `$` (end of path).
///   The longest matching pattern decides; between an `Allow` and a `Disallow` of equal length, the
///   `Allow` wins. An empty `Disallow` allows everything.
public struct RobotsRules: Hashable, Sendable {
    public struct Rule: Hashable, Sendable {
        public var allow: Bool
        public var pattern: String

        public init(allow: Bool, pattern: String) {
            self.allow = allow
            self.pattern = pattern
        }
    }

    struct Group: Hashable, Sendable {
        var agents: [String]
        var rules: [Rule]
    }

    var groups: [Group]

    /// Google reads at most 500 KiB of a robots.txt and ignores the rest.
    public static let sizeLimit = 500 * 1024

    public init(_ bytes: [UInt8]) {
        var groups: [Group] = []
        var current: Group?
        var inRules = false
        for raw in String(decoding: bytes.prefix(Self.sizeLimit), as: UTF8.self).split(whereSeparator: \.isNewline) {
            let line = raw.prefix { $0 != "#" }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let field = line[..<colon].trimmingSpaces().lowercased()
            let value = line[line.index(after: colon)...].trimmingSpaces()
            switch field {
            case "user-agent":
                if inRules || current == nil {
                    if let current { groups.append(current) }
                    current = Group(agents: [], rules: [])
                    inRules = false
                }
                current?.agents.append(value.lowercased())
            case "allow", "disallow":
                guard current != nil else { continue }
                inRules = true
                // An empty Disallow says "nothing is disallowed"; an empty Allow says nothing.
                if !value.isEmpty { current?.rules.append(Rule(allow: field == "allow", pattern: value)) }
            default:
                continue
            }
        }
        if let current { groups.append(current) }
        self.groups = groups
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

private extension Substring {
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
