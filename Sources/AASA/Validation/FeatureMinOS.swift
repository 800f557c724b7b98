import Vocabulary

/// Keys that older systems silently ignore (aasa-spec.md §14): reported once per feature, so a
/// site that still supports those systems knows which rules behave differently there.
/// (`components` and `appIDs` are covered by `entry-needs-ios13`.)
enum FeatureMinOS {
    private struct Feature {
        let name: String
        let since: String
        let effect: String
    }

    static func findings(_ appLinks: AppLinks) -> [Finding] {
        var used: [(Feature, SourceLocation)] = []
        func note(_ feature: Feature, _ location: SourceLocation) {
            if !used.contains(where: { $0.0.name == feature.name }) { used.append((feature, location)) }
        }
        let caseSensitive = Feature(name: "caseSensitive", since: "iOS 13.5, macOS 10.15.5",
                                    effect: "on iOS 13.0–13.4 the rule stays case-sensitive")
        let percentEncoded = Feature(name: "percentEncoded", since: "iOS 14, macOS 11",
                                     effect: "on iOS 13 the rule compares the encoded URL")
        let defaults = Feature(name: "defaults", since: "iOS 14, macOS 11",
                               effect: "on iOS 13 the defaults do not apply")
        let variables = Feature(name: "substitutionVariables", since: "iOS 13.5, macOS 10.15.6, tvOS 13.4",
                                effect: "older systems read $(name) as literal text")
        if let first = appLinks.substitutionVariables.first { note(variables, first.location) }
        if let settings = appLinks.defaults {
            note(defaults, appLinks.location)
            if settings.caseSensitive != nil { note(caseSensitive, appLinks.location) }
            if settings.percentEncoded != nil { note(percentEncoded, appLinks.location) }
        }
        for entry in appLinks.details {
            if let settings = entry.defaults {
                note(defaults, entry.location)
                if settings.caseSensitive != nil { note(caseSensitive, entry.location) }
                if settings.percentEncoded != nil { note(percentEncoded, entry.location) }
            }
            for rule in entry.rules {
                if rule.settings.caseSensitive != nil { note(caseSensitive, rule.location) }
                if rule.settings.percentEncoded != nil { note(percentEncoded, rule.location) }
            }
        }
        return used.map { feature, location in
            FindingDefinition.featureMinOS.finding(at: location,
                "\"\(feature.name)\" needs \(feature.since) or later; \(feature.effect).",
                hint: "Nothing to do unless you support older systems.")
        }
    }
}
