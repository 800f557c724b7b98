// libFuzzer target for RobotsRules, built by scripts/fuzz against the AssetLinks module. A site's
// robots.txt is outside bytes (any server, any editor, up to 500 KiB read): it must never trap or
// take more than pattern × path steps, and it must mean what Google's parser makes of it. The oracle
// is a reference written the plain way, over bytes as Google's robots.txt parser reads them (lines
// end at LF, CR or CRLF; a leading UTF-8 byte-order mark is skipped; `#` starts a comment; field and
// value split at the first colon, spaces and tabs trimmed; a user-agent names the product token, the
// run of letters, `_` and `-` it starts with, case-insensitively, or `*` alone or before a space) and a matcher by dynamic programming
// over the whole pattern instead of the greedy walk. Both are asked the same questions: which rule
// decides assetlinks.json's path, and a path taken from the input, for Googlebot, `*` and a stranger.

@testable import AssetLinks

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRobotsRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let rules = RobotsRules(bytes)
    let reference = ReferenceRobots(bytes)
    // A path made of the input's first printable bytes, so paths with `*`, `$` and `%` get asked too.
    let asked = "/" + String(decoding: bytes.prefix(48).filter { $0 > 0x20 && $0 < 0x7F }, as: UTF8.self)
    for path in ["/.well-known/assetlinks.json", asked] {
        for agent in ["googlebot", "*", "somebot"] {
            let ours = rules.decidingRule(for: path, agent: agent)
            let theirs = reference.decidingRule(for: Array(path.utf8), agent: Array(agent.utf8))
            if ours.map({ [UInt8]($0.pattern.utf8) }) != theirs?.pattern || ours?.allow != theirs?.allow {
                fatalError("\(agent) \(path): \(String(describing: ours)) but the reference says \(String(describing: theirs))")
            }
            if rules.allows(path, agent: agent) != (theirs?.allow ?? true) { fatalError("allows disagrees with the deciding rule") }
        }
    }
    return 0
}

/// RobotsRules' meaning, restated over bytes.
struct ReferenceRobots {
    struct Rule: Equatable {
        var allow: Bool
        var pattern: [UInt8]
    }

    var groups: [(agents: [[UInt8]], rules: [Rule])] = []

    init(_ input: [UInt8]) {
        var bytes = Array(input.prefix(RobotsRules.sizeLimit))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var lines: [[UInt8]] = [[]]
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == 0x0A, previous == 0x0D { previous = byte; continue }   // CRLF is one end
            if byte == 0x0A || byte == 0x0D { lines.append([]) } else { lines[lines.count - 1].append(byte) }
            previous = byte
        }
        var open = false   // the last group still takes user-agent lines (no rule seen yet)
        for line in lines {
            let content = Array(line.prefix { $0 != UInt8(ascii: "#") })
            guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let field = Self.trim(Array(content[..<colon])).map(Self.lower)
            let value = Self.trim(Array(content[(colon + 1)...]))
            if field == Array("user-agent".utf8) {
                if !open { groups.append((agents: [], rules: [])) }
                open = true
                groups[groups.count - 1].agents.append(Self.token(value))
            } else if field == Array("allow".utf8) || field == Array("disallow".utf8) {
                guard !groups.isEmpty else { continue }
                open = false
                // Patterns are kept as text (invalid UTF-8 repaired to U+FFFD), as RobotsRules does.
                let pattern = Array(String(decoding: value, as: UTF8.self).utf8)
                if !value.isEmpty { groups[groups.count - 1].rules.append(Rule(allow: field == Array("allow".utf8), pattern: pattern)) }
            }
        }
    }

    static func trim(_ bytes: [UInt8]) -> [UInt8] {
        let space: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        return Array(bytes.drop(while: space).reversed().drop(while: space).reversed())
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    /// The product token: `*` alone or before a space, or the leading letters, `_` and `-`, lower-cased.
    static func token(_ value: [UInt8]) -> [UInt8] {
        if value == [UInt8(ascii: "*")] || value.starts(with: [UInt8(ascii: "*"), 0x20]) || value.starts(with: [UInt8(ascii: "*"), 0x09]) {
            return [UInt8(ascii: "*")]
        }
        return value.prefix { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F || $0 == 0x2D }.map(lower)
    }

    func decidingRule(for path: [UInt8], agent: [UInt8]) -> Rule? {
        var obeyed = groups.filter { $0.agents.contains(agent) }
        if obeyed.isEmpty { obeyed = groups.filter { $0.agents.contains([UInt8(ascii: "*")]) } }
        let matching = obeyed.flatMap(\.rules).filter { Self.matches($0.pattern, path) }
        // Longest pattern wins; Allow wins a tie; the first in file order among equals.
        return matching.reduce(nil) { best, rule in
            guard let best else { return rule }
            return rule.pattern.count > best.pattern.count || (rule.pattern.count == best.pattern.count && rule.allow && !best.allow) ? rule : best
        }
    }

    /// Whether `pattern` (`*` any run, a final `$` the end) matches a prefix of `path`: table[i][j] is
    /// "the first i pattern bytes match the first j path bytes".
    static func matches(_ pattern: [UInt8], _ path: [UInt8]) -> Bool {
        var p = pattern
        let anchored = p.last == UInt8(ascii: "$")
        if anchored { p.removeLast() }
        var row = [Bool](repeating: false, count: path.count + 1)
        row[0] = true
        for byte in p {
            var next = [Bool](repeating: false, count: path.count + 1)
            for j in 0...path.count {
                if byte == UInt8(ascii: "*") {
                    next[j] = row[j] || (j > 0 && next[j - 1])
                } else if j > 0 {
                    next[j] = row[j - 1] && path[j - 1] == byte
                }
            }
            row = next
        }
        return anchored ? row[path.count] : row.contains(true)
    }
}
