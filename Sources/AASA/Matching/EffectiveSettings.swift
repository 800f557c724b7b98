/// Where a rule's effective value for one key came from (aasa-spec.md §9, §12 step 7).
public enum SettingSource: String, Hashable, Sendable, Codable {
    /// The rule's own component dictionary.
    case rule
    /// The details entry's `defaults`.
    case entryDefaults = "entry-defaults"
    /// `applinks.defaults`.
    case applinksDefaults = "applinks-defaults"
    /// Apple's built-in default (`*`, `*`, `*`, false, true, true).
    case builtIn = "built-in"
    /// Fixed by the conversion of a legacy `paths` string (§12 step 6).
    case legacyPath = "legacy-path"

    /// Words for the explanation: "set by the rule itself", "from applinks.defaults"…
    public var phrase: String {
        switch self {
        case .rule: "set on the rule itself"
        case .entryDefaults: "inherited from this entry's \"defaults\""
        case .applinksDefaults: "inherited from applinks \"defaults\""
        case .builtIn: "Apple's built-in default"
        case .legacyPath: "fixed for legacy \"paths\" rules"
        }
    }
}

public struct Resolved<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    public var source: SettingSource
}

/// A rule's settings after the defaults hierarchy: rule → entry `defaults` → `applinks.defaults` →
/// built-in. A nil pattern means the component is unconstrained (`*`).
public struct EffectiveSettings: Hashable, Sendable {
    public var path: Resolved<String?>
    public var query: Resolved<QuerySpec?>
    public var fragment: Resolved<String?>
    public var exclude: Resolved<Bool>
    public var caseSensitive: Resolved<Bool>
    public var percentEncoded: Resolved<Bool>

    /// Legacy `paths` rules carry only a path and an exclusion, and are case-sensitive and compared
    /// encoded (§11, §12 step 6). Whether `defaults` reach them is unknown (§12 step 6); we read the
    /// spec's conversion as fixed, so they do not.
    public init(rule: Rule, entryDefaults: RuleSettings?, applinksDefaults: RuleSettings?) {
        if rule.legacyPath != nil {
            path = Resolved(value: rule.settings.path, source: .legacyPath)
            query = Resolved(value: nil, source: .legacyPath)
            fragment = Resolved(value: nil, source: .legacyPath)
            exclude = Resolved(value: rule.settings.exclude ?? false, source: .legacyPath)
            caseSensitive = Resolved(value: true, source: .legacyPath)
            percentEncoded = Resolved(value: true, source: .legacyPath)
            return
        }
        func resolve<T>(_ key: KeyPath<RuleSettings, T?>, builtIn: T) -> Resolved<T> {
            if let value = rule.settings[keyPath: key] { return Resolved(value: value, source: .rule) }
            if let value = entryDefaults?[keyPath: key] { return Resolved(value: value, source: .entryDefaults) }
            if let value = applinksDefaults?[keyPath: key] { return Resolved(value: value, source: .applinksDefaults) }
            return Resolved(value: builtIn, source: .builtIn)
        }
        path = Self.pattern(\.path, rule.settings, entryDefaults, applinksDefaults)
        query = Self.pattern(\.query, rule.settings, entryDefaults, applinksDefaults)
        fragment = Self.pattern(\.fragment, rule.settings, entryDefaults, applinksDefaults)
        exclude = resolve(\.exclude, builtIn: false)
        caseSensitive = resolve(\.caseSensitive, builtIn: true)
        percentEncoded = resolve(\.percentEncoded, builtIn: true)
    }

    private static func pattern<T: Hashable & Sendable>(_ key: KeyPath<RuleSettings, T?>, _ rule: RuleSettings,
                                                        _ entry: RuleSettings?, _ applinks: RuleSettings?) -> Resolved<T?> {
        if let value = rule[keyPath: key] { return Resolved(value: value, source: .rule) }
        if let value = entry?[keyPath: key] { return Resolved(value: value, source: .entryDefaults) }
        if let value = applinks?[keyPath: key] { return Resolved(value: value, source: .applinksDefaults) }
        return Resolved(value: nil, source: .builtIn)
    }
}
