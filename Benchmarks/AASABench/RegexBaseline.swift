import Foundation

/// The matcher a competent engineer writes first: `JSONSerialization` for the file, each pattern
/// translated to an anchored `NSRegularExpression` (compiled once), `URLComponents` to split the URL,
/// and a first-match walk over the rules. It is the yardstick the matcher's ratios are measured against.
struct RegexBaseline {
    struct Rule {
        var path: NSRegularExpression?
        var query: NSRegularExpression?
        var items: [(String, NSRegularExpression)]
        var fragment: NSRegularExpression?
        var exclude: Bool
    }

    var rules: [Rule] = []

    /// Loads the rules of `appID` from the file's bytes. Ignores defaults and legacy paths: the
    /// baseline only needs the shapes the benchmark uses.
    init(json: Data, appID: String) throws {
        guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let applinks = root["applinks"] as? [String: Any],
              let details = applinks["details"] as? [[String: Any]] else { return }
        var variables = Self.builtIns
        for (name, values) in applinks["substitutionVariables"] as? [String: [String]] ?? [:] { variables[name] = values }
        for entry in details where (entry["appIDs"] as? [String])?.contains(appID) == true {
            for component in entry["components"] as? [[String: Any]] ?? [] {
                let caseless = component["caseSensitive"] as? Bool == false
                func regex(_ pattern: String?) throws -> NSRegularExpression? {
                    guard let pattern else { return nil }
                    return try NSRegularExpression(pattern: "^" + Self.translate(pattern, variables) + "$",
                                                   options: caseless ? [.caseInsensitive] : [])
                }
                var path = component["/"] as? String
                if let p = path, !p.hasPrefix("/") { path = "/" + p }
                var rule = Rule(path: try regex(path), query: nil, items: [], fragment: try regex(component["#"] as? String),
                                exclude: component["exclude"] as? Bool ?? false)
                if let query = component["?"] as? String {
                    rule.query = try regex(query)
                } else if let items = component["?"] as? [String: String] {
                    rule.items = try items.map { ($0.key, try regex($0.value) ?? NSRegularExpression(pattern: ".*")) }
                }
                rules.append(rule)
            }
        }
    }

    /// The built-ins as its author would get them: from Foundation.
    static let builtIns: [String: [String]] = [
        "lang": Locale.LanguageCode.isoLanguageCodes.map(\.identifier),
        "region": Locale.Region.isoRegions.map(\.identifier),
        "digit": (0...9).map(String.init),
        "alpha": (65...90).compactMap { UnicodeScalar($0).map { String($0) } } + (97...122).compactMap { UnicodeScalar($0).map { String($0) } },
    ]

    static func translate(_ pattern: String, _ variables: [String: [String]]) -> String {
        var out = ""
        var rest = Substring(pattern)
        while let c = rest.first {
            if c == "*" {
                out += ".*"
                rest = rest.dropFirst()
            } else if c == "?" {
                out += "."
                rest = rest.dropFirst()
            } else if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                out += "(?:" + (variables[name] ?? []).map { translate($0, [:]) }.joined(separator: "|") + ")"
                rest = rest[rest.index(after: close)...]
            } else {
                out += NSRegularExpression.escapedPattern(for: String(c))
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// "match", "exclude" or "no_match".
    func decide(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return "no_match" }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let query = components.percentEncodedQuery ?? ""
        let fragment = components.percentEncodedFragment ?? ""
        let items = components.percentEncodedQueryItems ?? []
        func whole(_ regex: NSRegularExpression?, _ text: String) -> Bool {
            guard let regex else { return true }
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        for rule in rules {
            guard whole(rule.path, path), whole(rule.query, query), whole(rule.fragment, fragment) else { continue }
            let itemsMatch = rule.items.allSatisfy { name, regex in
                let values = items.filter { $0.name == name }.map { $0.value ?? "" }
                return (values.isEmpty ? [""] : values).allSatisfy { whole(regex, $0) }
            }
            if itemsMatch { return rule.exclude ? "exclude" : "match" }
        }
        return "no_match"
    }
}
