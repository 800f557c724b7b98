import LocatedJSON

/// Reads a `defaults` dictionary at the applinks or entry level (aasa-spec.md §9).
enum DefaultsReader {
    static func read(_ value: JSONValue, _ path: JSONPath, level: String, _ context: inout ReadContext) -> RuleSettings? {
        guard case .object(let members) = value.kind else {
            context.report(.defaultsWrongType, path, value.position,
                "\"defaults\" of \(level) is \(value.typeDescription), but it must be an object such as {\"caseSensitive\": false}; it is ignored.",
                hint: "Write \"defaults\": {\"caseSensitive\": false, \"percentEncoded\": true}.")
            return nil
        }
        let read = ComponentReader.read(members, path, what: "the defaults of \(level)", &context)
        // Entry defaults inherit percentEncoded from applinks.defaults; applinks.defaults from the built-in true.
        let percentEncoded = read.settings.percentEncoded ?? context.applinksDefaults?.percentEncoded ?? true
        for site in read.patterns { PatternCheck.check(site, percentEncoded: percentEncoded, &context) }
        let patternKeys = ["/", "?", "#", "exclude"].filter { value.member($0) != nil }
        if !patternKeys.isEmpty {
            context.report(.defaultsPatternKeys, path, value.position,
                "The defaults of \(level) set \(patternKeys.map { "\"\($0)\"" }.joined(separator: ", ")); these apply to every rule that does not set them itself\(patternKeys.contains("exclude") ? ", which can turn rules into exclusions" : "").",
                hint: "Legal, but easy to forget when reading a rule; prefer setting them on the rules.")
        }
        return read.settings
    }
}
