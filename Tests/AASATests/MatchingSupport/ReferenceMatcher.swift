import Foundation
@testable import AASA

/// A deliberately naive matcher written from aasa-spec.md, independent of the product code: Foundation's
/// `URLComponents` splits the URL, patterns are matched by recursive backtracking, and each variable
/// is tried value by value. Exponential in the worst case, so only for small random inputs; its one
/// job is to disagree with the fast matcher when either is wrong.
enum ReferenceMatcher {
    enum Token: Equatable {
        case literal(Unicode.Scalar)
        case any
        case star
        case variable(String)
    }

    static func tokens(_ pattern: String, valuesAreLiteral: Bool = false) -> [Token] {
        var out: [Token] = []
        let scalars = Array(pattern.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            if c == "*" {
                out.append(.star)
            } else if c == "?" {
                out.append(.any)
            } else if !valuesAreLiteral, c == "$", i + 1 < scalars.count, scalars[i + 1] == "(",
                      let close = scalars[(i + 2)...].firstIndex(of: ")") {
                out.append(.variable(String(String.UnicodeScalarView(scalars[(i + 2)..<close]))))
                i = close + 1
                continue
            } else {
                out.append(.literal(c))
            }
            i += 1
        }
        return out
    }

    static func fold(_ s: Unicode.Scalar, _ insensitive: Bool) -> String {
        insensitive ? String(s).uppercased().lowercased() : String(s)
    }

    /// Backtracking glob: does `pattern` cover all of `text`?
    static func glob(_ pattern: ArraySlice<Token>, _ text: ArraySlice<Unicode.Scalar>, insensitive: Bool,
                     variables: [String: [String]]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        let rest = pattern.dropFirst()
        switch first {
        case .literal(let c):
            guard let t = text.first, fold(t, insensitive) == fold(c, insensitive) else { return false }
            return glob(rest, text.dropFirst(), insensitive: insensitive, variables: variables)
        case .any:
            guard !text.isEmpty else { return false }
            return glob(rest, text.dropFirst(), insensitive: insensitive, variables: variables)
        case .star:
            for k in 0...text.count where glob(rest, text.dropFirst(k), insensitive: insensitive, variables: variables) {
                return true
            }
            return false
        case .variable(let name):
            let values = variables[name] ?? ReferenceMatcher.builtIns[name] ?? []
            return values.contains { value in
                glob(ArraySlice(tokens(value, valuesAreLiteral: true) + rest), text, insensitive: insensitive,
                     variables: variables)
            }
        }
    }

    static let builtIns: [String: [String]] = [
        "digit": (0...9).map(String.init),
        "lower": "abcdefghijklmnopqrstuvwxyz".map(String.init),
        "upper": "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init),
    ]

    static func matches(_ pattern: String, _ text: String, insensitive: Bool, variables: [String: [String]]) -> Bool {
        glob(ArraySlice(tokens(pattern)), ArraySlice(Array(text.unicodeScalars)), insensitive: insensitive,
             variables: variables)
    }

    /// §8.4 on strings: trim slashes on both sides, then `/` + body; a final `/*` may also be absent.
    static func pathMatches(_ pattern: String, _ path: String, insensitive: Bool, variables: [String: [String]]) -> Bool {
        func trim(_ s: String) -> String {
            var t = Substring(s)
            while t.hasPrefix("/") { t = t.dropFirst() }
            while t.hasSuffix("/") { t = t.dropLast() }
            return String(t)
        }
        var collapsed = pattern
        while collapsed.contains("**") { collapsed = collapsed.replacingOccurrences(of: "**", with: "*") }
        let body = trim(collapsed)
        let canonicalPath = "/" + trim(path)
        if matches("/" + body, canonicalPath, insensitive: insensitive, variables: variables) { return true }
        if body.hasSuffix("/*") {
            return matches("/" + trim(String(body.dropLast(2))), canonicalPath, insensitive: insensitive, variables: variables)
        }
        return false
    }

    /// The decision for one app, following aasa-spec.md §12 steps 5–9 literally.
    static func decide(_ doc: AASADocument, url: String, appID: String) -> String {
        guard let components = URLComponents(string: url), let applinks = doc.applinks else { return "no_match" }
        let variables = Dictionary(applinks.substitutionVariables.map { ($0.name, $0.values) }, uniquingKeysWith: { $1 })
        for entry in applinks.details where entry.appIDs.contains(appID) {
            for rule in entry.rules {
                let settings = rule.settings
                func pick<T>(_ key: KeyPath<RuleSettings, T?>) -> T? {
                    settings[keyPath: key] ?? entry.defaults?[keyPath: key] ?? applinks.defaults?[keyPath: key]
                }
                let legacy = rule.legacyPath != nil
                let insensitive = legacy ? false : !(pick(\.caseSensitive) ?? true)
                let encoded = legacy ? true : (pick(\.percentEncoded) ?? true)
                let exclude = legacy ? (settings.exclude ?? false) : (pick(\.exclude) ?? false)
                func form(_ raw: String?) -> String {
                    let text = raw ?? ""
                    return encoded ? text : (text.removingPercentEncoding ?? text)
                }
                var ok = true
                if let path = legacy ? settings.path : pick(\.path) {
                    ok = ok && pathMatches(path, form(components.percentEncodedPath), insensitive: insensitive,
                                           variables: variables)
                }
                if let fragment = legacy ? nil : pick(\.fragment) {
                    ok = ok && matches(fragment, form(components.percentEncodedFragment), insensitive: insensitive,
                                       variables: variables)
                }
                switch legacy ? nil : pick(\.query) {
                case .string(let pattern):
                    ok = ok && matches(pattern, form(components.percentEncodedQuery), insensitive: insensitive,
                                       variables: variables)
                case .items(let items):
                    let pairs = (components.percentEncodedQuery ?? "").components(separatedBy: "&").filter { !$0.isEmpty }
                        .map { item -> (String, String) in
                            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                            let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                            return (name, parts.count > 1 ? String(parts[1]) : "")
                        }
                    for item in items {
                        var values = pairs.filter { $0.0 == item.name }.map { form($0.1) }
                        if values.isEmpty { values = [""] }
                        ok = ok && values.allSatisfy {
                            matches(item.pattern, $0, insensitive: insensitive, variables: variables)
                        }
                    }
                case .voided, nil: break
                }
                if ok { return exclude ? "exclude" : "match" }
            }
        }
        return "no_match"
    }
}

/// SplitMix64: a tiny seeded generator, so a failing random case can be reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
