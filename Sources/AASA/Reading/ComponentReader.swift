import LocatedJSON

/// Reads a component dictionary (one rule) or a `defaults` dictionary, which Apple calls a
/// subclass of components and which may carry the same keys (aasa-spec.md §7, §9).
enum ComponentReader {
    static let knownKeys = ["/", "?", "#", "exclude", "comment", "caseSensitive", "percentEncoded"]
    /// Names people write instead of Apple's one-character keys.
    static let aliases = ["path": "/", "paths": "/", "query": "?", "queries": "?", "fragment": "#", "hash": "#",
                          "excluded": "exclude", "caseInsensitive": "caseSensitive"]

    struct Read {
        var settings = RuleSettings()
        var comment: String?
        var patterns: [PatternSite] = []
    }

    /// Reads the keys of `members`; the patterns are returned for checking once the effective
    /// `percentEncoded` (rule → entry defaults → applinks defaults) is known.
    static func read(_ members: [JSONMember], _ path: JSONPath, what: String, _ context: inout ReadContext) -> Read {
        var read = Read()
        for member in DocumentReader.latestMembers(members) {
            let keyPath = path.appending(member.key)
            let value = member.value
            switch member.key {
            case "/", "#", "comment":
                guard let text = value.stringValue else {
                    wrongType(member, keyPath, expected: "a string", what: what, &context)
                    continue
                }
                switch member.key {
                case "/":
                    read.settings.path = text
                    read.patterns.append(PatternSite(text: text, kind: .path, path: keyPath, position: value.position))
                case "#":
                    read.settings.fragment = text
                    read.patterns.append(PatternSite(text: text, kind: .fragment, path: keyPath, position: value.position))
                default:
                    read.comment = text
                }
            case "?":
                switch value.kind {
                case .string(let text):
                    read.settings.query = .string(text)
                    read.patterns.append(PatternSite(text: text, kind: .query, path: keyPath, position: value.position))
                case .object(let items):
                    read.settings.query = readQueryItems(items, keyPath, &read.patterns, &context)
                default:
                    wrongType(member, keyPath, expected: "a string or an object of query item patterns", what: what, &context)
                }
            case "exclude", "caseSensitive", "percentEncoded":
                guard case .bool(let flag) = value.kind else {
                    // [uncertain §17.9] Apple's handling of non-Boolean flags is unknown; we drop the value.
                    wrongType(member, keyPath, expected: "true or false", what: what, &context)
                    continue
                }
                switch member.key {
                case "exclude": read.settings.exclude = flag
                case "caseSensitive": read.settings.caseSensitive = flag
                default: read.settings.percentEncoded = flag
                }
            default:
                break
            }
        }
        context.reportUnknownKeys(members, known: knownKeys, at: path, what: what, aliases: aliases)
        return read
    }

    private static func readQueryItems(_ items: [JSONMember], _ path: JSONPath, _ patterns: inout [PatternSite],
                                       _ context: inout ReadContext) -> QuerySpec {
        var result: [QueryItemPattern] = []
        var voided = false
        for item in DocumentReader.latestMembers(items) {
            let itemPath = path.appending(item.key)
            patterns.append(PatternSite(text: item.key, kind: .queryItemName, path: itemPath, position: item.keyPosition))
            if let pattern = item.value.stringValue {
                result.append(QueryItemPattern(name: item.key, pattern: pattern))
                patterns.append(PatternSite(text: pattern, kind: .queryItemValue, path: itemPath, position: item.value.position))
            } else {
                voided = true
                context.report(.queryPredicateNotString, itemPath, item.value.position,
                    "The query item \"\(item.key)\" has \(item.value.typeDescription) as its pattern. Apple then ignores the whole \"?\" dictionary, so none of its conditions apply and the rule matches any query.",
                    hint: "Write the pattern as a string, e.g. \"\(item.key)\": \"\(suggestedString(item.value))\".")
            }
        }
        return voided ? .voided : .items(result)
    }

    private static func suggestedString(_ value: JSONValue) -> String {
        switch value.kind {
        case .number(let text): text
        case .bool(let b): b ? "true" : "false"
        default: "*"
        }
    }

    private static func wrongType(_ member: JSONMember, _ path: JSONPath, expected: String, what: String,
                                  _ context: inout ReadContext) {
        context.report(.componentKeyWrongType, path, member.value.position,
            "\"\(member.key)\" in \(what) is \(member.value.typeDescription), but it must be \(expected); the value is ignored.",
            hint: expected == "true or false" ? "Write true or false without quotes." : "Put the pattern in double quotes.")
    }
}
