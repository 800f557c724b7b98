import Vocabulary

/// Why a document gives a URL to an app or not, in terms a web developer can act on: the deciding
/// rule and where each of its settings came from, or for a miss the closest rule and the component
/// that failed. Produced by `CompiledDocument.explain(url:appID:)`; its `decision` always equals
/// `decide(url:appID:)`.
public struct MatchExplanation: Hashable, Sendable, Codable {
    public var url: String
    public var appID: String
    public var parts: URLParts
    public var decision: MatchDecision
    /// The rule that decided (match or exclude).
    public var decidingRule: RuleTrace?
    /// For a miss: the rule that came nearest (most components matching; the earliest on a tie).
    public var closestRule: RuleTrace?
    /// Every rule tried for the app, in order, up to the deciding one.
    public var trace: [RuleTrace]
    /// The explanation in sentences.
    public var summary: String
}

/// One rule as the explanation saw it.
public struct RuleTrace: Hashable, Sendable, Codable {
    /// Index into `applinks.details`, and into that entry's rules.
    public var entry: Int
    public var rule: Int
    public var location: SourceLocation
    /// The effective rule written as JSON-like text, e.g. `{"/": "/buy/*", "exclude": true}`.
    public var text: String
    public var legacyPath: String?
    public var comment: String?
    public var settings: [SettingExplanation]
    /// One check per constrained component; a rule with none matches every URL.
    public var checks: [ComponentCheck]
    public var matched: Bool
    public var exclude: Bool

    /// "rule 2 of entry 1": one-based, as people count.
    public var name: String { "rule \(rule + 1) of details entry \(entry + 1)" }
}

/// One effective setting and where it came from.
public struct SettingExplanation: Hashable, Sendable, Codable {
    /// `/`, `?`, `#`, `exclude`, `caseSensitive` or `percentEncoded`.
    public var key: String
    public var value: String
    public var source: SettingSource
}

/// The result of comparing one URL component with one pattern.
public struct ComponentCheck: Hashable, Sendable, Codable {
    /// "path", "query", "query item" or "fragment".
    public var component: String
    /// The query item name, for "query item".
    public var itemName: String?
    public var pattern: String
    /// The URL text as compared (canonical path; decoded when `percentEncoded` is false); for a query
    /// item, its values joined by ", " (empty when absent).
    public var value: String
    public var matched: Bool
    /// One sentence, with a hint when flipping a setting would change the result.
    public var explanation: String
}

extension MatchDecision: Codable {
    private enum CodingKeys: String, CodingKey { case decision, entry, rule }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .decision)
        switch name {
        case "no_match": self = .noMatch
        case "match": self = .match(entry: try container.decode(Int.self, forKey: .entry),
                                    rule: try container.decode(Int.self, forKey: .rule))
        case "exclude": self = .exclude(entry: try container.decode(Int.self, forKey: .entry),
                                        rule: try container.decode(Int.self, forKey: .rule))
        default:
            throw DecodingError.dataCorruptedError(forKey: .decision, in: container,
                                                   debugDescription: "expected match, exclude or no_match")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .decision)
        try container.encodeIfPresent(entry, forKey: .entry)
        try container.encodeIfPresent(rule, forKey: .rule)
    }
}
