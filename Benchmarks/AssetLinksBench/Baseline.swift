import Foundation

/// What a competent engineer writes first for assetlinks.json: `JSONSerialization` for the file, a
/// walk over the statements with `NSRegularExpression` checks of relations and fingerprints, and each
/// dynamic-rule pattern translated to an anchored regular expression (compiled once). The translation
/// keeps Android's semantics — `*` before a character `c` becomes `[^c]*c` (stop at the first `c`),
/// a trailing `*` becomes `.*`, `?` becomes `.` — so both sides give the same answers.
enum Baseline {
    static let relation = try? NSRegularExpression(pattern: "^[a-z0-9_]+/[a-z0-9_.]+$")
    static let fingerprint = try? NSRegularExpression(pattern: "^[0-9A-F]{2}(:[0-9A-F]{2}){31}$")

    static func matches(_ regex: NSRegularExpression?, _ text: String) -> Bool {
        guard let regex else { return false }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// The statements that pass the format's checks, counted; nil when the file is not a JSON array.
    static func validate(_ data: Data) -> Int? {
        guard let statements = try? JSONSerialization.jsonObject(with: data) as? [Any] else { return nil }
        var valid = 0
        for case let statement as [String: Any] in statements {
            guard let relations = statement["relation"] as? [String], relations.allSatisfy({ matches(relation, $0) }),
                  let target = statement["target"] as? [String: Any] else { continue }
            switch target["namespace"] as? String {
            case "android_app":
                guard let package = target["package_name"] as? String, !package.isEmpty,
                      let prints = target["sha256_cert_fingerprints"] as? [String], !prints.isEmpty,
                      prints.allSatisfy({ matches(fingerprint, $0) }) else { continue }
                valid += 1
            case "web":
                guard let site = target["site"] as? String, let url = URL(string: site), url.path.isEmpty else { continue }
                valid += 1
            default:
                continue
            }
        }
        return valid
    }

    struct Rule {
        var path: NSRegularExpression?
        var query: [NSRegularExpression]
        var fragment: NSRegularExpression?
        var exclude: Bool
    }

    static func translate(_ pattern: String) -> String {
        let characters = Array(pattern)
        var out = "^"
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c == "*" {
                if i + 1 == characters.count {
                    out += ".*"
                } else {
                    let next = characters[i + 1] == "?" ? "." : String(characters[i + 1])
                    let escaped = NSRegularExpression.escapedPattern(for: next)
                    out += "[^" + escaped + "]*" + escaped
                    i += 1
                }
            } else if c == "?" {
                out += "."
            } else {
                out += NSRegularExpression.escapedPattern(for: String(c))
            }
            i += 1
        }
        return out + "$"
    }

    /// The first package's first handle_all_urls rule list, compiled to regular expressions.
    static func rules(_ data: Data) -> [Rule] {
        guard let statements = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        for statement in statements {
            guard let extensions = statement["relation_extensions"] as? [String: Any],
                  let handle = extensions["delegate_permission/common.handle_all_urls"] as? [String: Any],
                  let components = handle["dynamic_app_link_components"] as? [[String: Any]] else { continue }
            return components.map { component in
                let regex = { (p: String?) in p.flatMap { try? NSRegularExpression(pattern: translate($0)) } }
                let query = (component["?"] as? [String: String] ?? [:]).sorted { $0.key < $1.key }
                    .compactMap { try? NSRegularExpression(pattern: translate($0.key + "=" + $0.value)) }
                return Rule(path: regex(component["/"] as? String), query: query, fragment: regex(component["#"] as? String),
                            exclude: component["exclude"] as? Bool ?? false)
            }
        }
        return []
    }

    /// match / exclude / no_match for one URL.
    static func decide(_ url: String, _ rules: [Rule]) -> String {
        guard let components = URLComponents(string: url) else { return "no_match" }
        let path = components.path
        let query = components.query
        let fragment = components.fragment
        var parameters = query.map { $0.components(separatedBy: "&") } ?? []
        if parameters.count == 1, let query { parameters = query.components(separatedBy: ";") }
        for rule in rules {
            if rule.path == nil && rule.fragment == nil && rule.query.isEmpty { continue }
            if let regex = rule.path, !matches(regex, path) { continue }
            if let regex = rule.fragment {
                guard let fragment, matches(regex, fragment) else { continue }
            }
            if !rule.query.allSatisfy({ regex in query != nil && parameters.contains { matches(regex, $0) } }) { continue }
            return rule.exclude ? "exclude" : "match"
        }
        return "no_match"
    }
}
