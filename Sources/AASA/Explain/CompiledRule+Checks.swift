import LocatedJSON
import TextEncoding

/// The per-component view of a rule that explanations use. It calls the same matchers as
/// `CompiledRule.matches`, so a rule's `matched` here is exactly its result there.
extension CompiledRule {
    func checks(_ url: PreparedURL) -> [ComponentCheck] {
        var checks: [ComponentCheck] = []
        if let path, let pattern = settings.path.value {
            let value = url.path(encoded: encoded)
            checks.append(check("path", pattern: pattern, value: value, matched: path.matches(value, folding: folding)))
        }
        switch query {
        case nil: break
        case .whole(let matcher):
            let value = url.query(encoded: encoded)
            checks.append(check("query", pattern: Self.queryPattern(settings.query.value), value: value,
                                matched: matcher.matches(value, folding: folding)))
        case .items(let items):
            for item in items {
                let values = url.items.filter { $0.name == item.nameBytes }.map { encoded ? $0.encodedValue : $0.decodedValue }
                let pattern = Self.itemPattern(item.name, in: settings.query.value)
                let matched = itemMatches(item, in: url)
                let failing = values.filter { !item.matcher.matches($0, folding: folding) }.map(Self.text)
                checks.append(ComponentCheck(
                    component: "query item", itemName: item.name, pattern: pattern,
                    value: values.map(Self.text).joined(separator: ", "), matched: matched,
                    explanation: Self.itemSentence(item.name, pattern: pattern, values: values.map(Self.text),
                                                   failing: failing, matched: matched)))
            }
        }
        if let fragment, let pattern = settings.fragment.value {
            let value = url.fragment(encoded: encoded)
            checks.append(check("fragment", pattern: pattern, value: value,
                                matched: fragment.matches(value, folding: folding)))
        }
        return checks
    }

    private func check(_ component: String, pattern: String, value: [UInt32], matched: Bool) -> ComponentCheck {
        let text = Self.text(value)
        let shown = text.isEmpty && component != "path" ? "\"\" (absent or empty)" : "\"\(text)\""
        let sentence = matched
            ? "The \(component) \(shown) matches \"\(pattern)\"."
            : "The \(component) \(shown) does not match \"\(pattern)\"."
        return ComponentCheck(component: component, pattern: pattern, value: text, matched: matched, explanation: sentence)
    }

    private static func itemSentence(_ name: String, pattern: String, values: [String], failing: [String],
                                     matched: Bool) -> String {
        if values.isEmpty {
            return matched
                ? "Query item \"\(name)\" is absent, which counts as an empty value, and \"\(pattern)\" accepts that."
                : "Query item \"\(name)\" is absent; an absent item counts as an empty value, which \"\(pattern)\" does not accept."
        }
        if values.count == 1 {
            return "Query item \"\(name)\" is \"\(values[0])\", which \(matched ? "matches" : "does not match") \"\(pattern)\"."
        }
        return matched
            ? "Query item \"\(name)\" occurs \(values.count) times and every value matches \"\(pattern)\"."
            : "Query item \"\(name)\" occurs \(values.count) times; every occurrence must match \"\(pattern)\", but "
                + failing.map { "\"\($0)\"" }.joined(separator: ", ") + " does not."
    }

    static func text(_ units: [UInt32]) -> String {
        String(String.UnicodeScalarView(units.compactMap(Unicode.Scalar.init)))
    }

    static func queryPattern(_ query: QuerySpec?) -> String {
        if case .string(let pattern) = query { return pattern }
        return "*"
    }

    static func itemPattern(_ name: String, in query: QuerySpec?) -> String {
        if case .items(let items) = query { return items.last(where: { $0.name == name })?.pattern ?? "*" }
        return "*"
    }

    /// The effective rule as JSON-like text, showing only what constrains or differs from the built-ins.
    var text: String {
        var parts: [String] = []
        if let path = settings.path.value { parts.append("\"/\": \(Self.quoted(path))") }
        switch settings.query.value {
        case .string(let pattern): parts.append("\"?\": \(Self.quoted(pattern))")
        case .items(let items):
            parts.append("\"?\": {" + items.map { "\(Self.quoted($0.name)): \(Self.quoted($0.pattern))" }
                .joined(separator: ", ") + "}")
        case .voided: parts.append("\"?\": {…ignored: a value is not a string…}")
        case nil: break
        }
        if let fragment = settings.fragment.value { parts.append("\"#\": \(Self.quoted(fragment))") }
        if settings.exclude.value { parts.append("\"exclude\": true") }
        if !settings.caseSensitive.value { parts.append("\"caseSensitive\": false") }
        if !settings.percentEncoded.value { parts.append("\"percentEncoded\": false") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    var settingExplanations: [SettingExplanation] {
        func pattern(_ value: String?) -> String { value.map(Self.quoted) ?? "* (unconstrained)" }
        let query: String = switch settings.query.value {
        case .string(let pattern): Self.quoted(pattern)
        case .items(let items) where !items.isEmpty:
            "{" + items.map { "\(Self.quoted($0.name)): \(Self.quoted($0.pattern))" }.joined(separator: ", ") + "}"
        case .items: "{} (no constraint)"
        case .voided: "ignored: a value in the dictionary is not a string, so Apple drops the whole dictionary"
        case nil: "* (unconstrained)"
        }
        return [
            SettingExplanation(key: "/", value: pattern(settings.path.value), source: settings.path.source),
            SettingExplanation(key: "?", value: query, source: settings.query.source),
            SettingExplanation(key: "#", value: pattern(settings.fragment.value), source: settings.fragment.source),
            SettingExplanation(key: "exclude", value: String(settings.exclude.value), source: settings.exclude.source),
            SettingExplanation(key: "caseSensitive", value: String(settings.caseSensitive.value),
                               source: settings.caseSensitive.source),
            SettingExplanation(key: "percentEncoded", value: String(settings.percentEncoded.value),
                               source: settings.percentEncoded.source),
        ]
    }

    static func quoted(_ text: String) -> String { JSONStringLiteral.quoted(text) }
}
