/// What a rule does, with everything that cannot change a result normalised away, so two files can be
/// compared by behaviour rather than bytes: settings resolved through the defaults hierarchy (a
/// `caseSensitive` hoisted into `defaults` is the same rule), unconstrained components dropped (`*`,
/// `{}`, a voided dictionary, absent), the path in its canonical slash form (`buy/*` ≡ `/buy/*/`),
/// case folded where the rule is case-insensitive, and the values of the variables it uses included
/// (changing `$(food)` changes every rule that says `$(food)`).
public struct RuleBehaviour: Hashable, Sendable, Codable {
    public var path: String?
    public var queryString: String?
    /// Query item patterns by name (sorted by name).
    public var queryItems: [String: String]?
    public var fragment: String?
    public var exclude: Bool
    public var caseSensitive: Bool
    public var percentEncoded: Bool
    /// Values of the variables the patterns reference (sorted, duplicates dropped); built-ins not
    /// redefined by the file are fixed and left out.
    public var variables: [String: [String]]

    init(_ settings: EffectiveSettings, variables: [String: [String]]) {
        let folded = !settings.caseSensitive.value
        func normalise(_ pattern: String?) -> String? {
            guard let pattern else { return nil }
            let collapsed = Self.collapseStars(pattern)
            if collapsed.allSatisfy({ $0 == "*" }) && !collapsed.isEmpty { return nil }
            return folded ? Self.foldOutsideVariables(collapsed) : collapsed
        }
        if let raw = settings.path.value {
            var body = Substring(Self.collapseStars(raw))
            while body.hasPrefix("/") { body = body.dropFirst() }
            while body.hasSuffix("/") { body = body.dropLast() }
            let canonical = body == "*" ? nil : "/" + body
            path = canonical.map { folded ? Self.foldOutsideVariables($0) : $0 }
        } else {
            path = nil
        }
        switch settings.query.value {
        case .string(let pattern):
            queryString = normalise(pattern)
            queryItems = nil
        case .items(let items):
            var byName: [String: String] = [:]
            for item in items {
                if let pattern = normalise(item.pattern) { byName[item.name] = pattern } else { byName[item.name] = nil }
            }
            queryString = nil
            queryItems = byName.isEmpty ? nil : byName
        case .voided, nil:
            queryString = nil
            queryItems = nil
        }
        fragment = normalise(settings.fragment.value)
        exclude = settings.exclude.value
        let constrains = path != nil || queryString != nil || queryItems != nil || fragment != nil
        // Settings that cannot change any result are normalised to the built-ins.
        caseSensitive = constrains ? settings.caseSensitive.value : true
        percentEncoded = constrains ? settings.percentEncoded.value : true
        var used: [String: [String]] = [:]
        let patterns = [path, queryString, fragment].compactMap { $0 } + (queryItems.map { Array($0.values) } ?? [])
        for name in patterns.flatMap(Self.variableNames) {
            if let values = variables[name] { used[name] = Array(Set(values)).sorted() }
        }
        self.variables = used
    }

    /// The keys whose behaviour differs from `other`: `/`, `?`, `#`, `exclude`, `caseSensitive`,
    /// `percentEncoded`, `$(name)`.
    func changedKeys(from other: RuleBehaviour) -> [String] {
        var keys: [String] = []
        if path != other.path { keys.append("/") }
        if queryString != other.queryString || queryItems != other.queryItems { keys.append("?") }
        if fragment != other.fragment { keys.append("#") }
        if exclude != other.exclude { keys.append("exclude") }
        if caseSensitive != other.caseSensitive { keys.append("caseSensitive") }
        if percentEncoded != other.percentEncoded { keys.append("percentEncoded") }
        for name in Set(variables.keys).union(other.variables.keys).sorted() where variables[name] != other.variables[name] {
            keys.append("$(\(name))")
        }
        return keys
    }

    /// JSON-like text of the behaviour, e.g. `{"/": "/buy/*", "exclude": true}`.
    public var text: String {
        var parts: [String] = []
        if let path { parts.append("\"/\": \(CompiledRule.quoted(path))") }
        if let queryString { parts.append("\"?\": \(CompiledRule.quoted(queryString))") }
        if let queryItems {
            parts.append("\"?\": {" + queryItems.sorted { $0.key < $1.key }
                .map { "\(CompiledRule.quoted($0.key)): \(CompiledRule.quoted($0.value))" }.joined(separator: ", ") + "}")
        }
        if let fragment { parts.append("\"#\": \(CompiledRule.quoted(fragment))") }
        if exclude { parts.append("\"exclude\": true") }
        if !caseSensitive { parts.append("\"caseSensitive\": false") }
        if !percentEncoded { parts.append("\"percentEncoded\": false") }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private static func collapseStars(_ pattern: String) -> String {
        var out = ""
        for character in pattern where !(character == "*" && out.last == "*") { out.append(character) }
        return out
    }

    /// Lower-cases literal text but not `$(name)` references: variable names stay case-sensitive.
    private static func foldOutsideVariables(_ pattern: String) -> String {
        var out = ""
        var rest = Substring(pattern)
        while let open = rest.range(of: "$("), let close = rest[open.upperBound...].firstIndex(of: ")") {
            out += rest[..<open.lowerBound].lowercased()
            out += rest[open.lowerBound...close]
            rest = rest[rest.index(after: close)...]
        }
        return out + rest.lowercased()
    }

    private static func variableNames(_ pattern: String) -> [String] {
        var names: [String] = []
        var rest = Substring(pattern)
        while let open = rest.range(of: "$("), let close = rest[open.upperBound...].firstIndex(of: ")") {
            names.append(String(rest[open.upperBound..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
