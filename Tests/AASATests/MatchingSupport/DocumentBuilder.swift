import Vocabulary

@testable import AASA

/// Builds documents in code for matcher tests, mirroring what the parser produces for the JSON.
enum DocumentBuilder {
    static func rule(_ path: String? = nil, query: QuerySpec? = nil, fragment: String? = nil, exclude: Bool? = nil,
                     caseSensitive: Bool? = nil, percentEncoded: Bool? = nil) -> Rule {
        Rule(settings: RuleSettings(path: path, query: query, fragment: fragment, exclude: exclude,
                                    caseSensitive: caseSensitive, percentEncoded: percentEncoded),
             location: SourceLocation(pointer: ""))
    }

    static func items(_ pairs: KeyValuePairs<String, String>) -> QuerySpec {
        .items(pairs.map { QueryItemPattern(name: $0.key, pattern: $0.value) })
    }

    /// Legacy `paths`, converted as the parser does: `NOT p` becomes an exclusion of `p`.
    static func legacy(_ paths: [String]) -> [Rule] {
        paths.map { text in
            let isNot = text.hasPrefix("NOT ")
            return Rule(settings: RuleSettings(path: isNot ? String(text.dropFirst(4)) : text, exclude: isNot ? true : nil),
                        legacyPath: text, location: SourceLocation(pointer: ""))
        }
    }

    static func entry(_ appIDs: [String], _ rules: [Rule], defaults: RuleSettings? = nil,
                      source: DetailEntry.RulesSource = .components) -> DetailEntry {
        DetailEntry(appIDs: appIDs, rules: rules, rulesSource: source, defaults: defaults,
                    location: SourceLocation(pointer: ""))
    }

    static func document(_ entries: [DetailEntry], defaults: RuleSettings? = nil,
                         variables: KeyValuePairs<String, [String]> = [:],
                         services: [String: [String]] = [:]) -> AASADocument {
        AASADocument(
            applinks: AppLinks(apps: [], details: entries, defaults: defaults,
                               substitutionVariables: variables.map {
                                   SubstitutionVariable(name: $0.key, values: $0.value, location: SourceLocation(pointer: ""))
                               }),
            appServices: services.mapValues { AppsService(apps: $0, location: SourceLocation(pointer: "")) })
    }

    static let app = "ABCDE12345.com.example.app"

    /// One app, the given rules: the smallest document that exercises a rule.
    static func compiled(_ rules: [Rule], defaults: RuleSettings? = nil, entryDefaults: RuleSettings? = nil,
                         variables: KeyValuePairs<String, [String]> = [:]) -> CompiledDocument {
        CompiledDocument(document([entry([app], rules, defaults: entryDefaults)], defaults: defaults, variables: variables))
    }

    /// "match", "exclude" or "no_match" for one URL against one rule list.
    static func outcome(_ url: String, _ rules: [Rule], defaults: RuleSettings? = nil, entryDefaults: RuleSettings? = nil,
                        variables: KeyValuePairs<String, [String]> = [:]) -> String {
        compiled(rules, defaults: defaults, entryDefaults: entryDefaults, variables: variables)
            .decide(url: url, appID: app).name
    }

    static func matches(_ url: String, _ rule: Rule, variables: KeyValuePairs<String, [String]> = [:]) -> Bool {
        outcome(url, [rule], variables: variables) == "match"
    }
}
