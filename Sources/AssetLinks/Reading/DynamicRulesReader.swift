import LocatedJSON
import TextEncoding
import Vocabulary

/// Reads `relation_extensions` and the Android 15+ rules inside it (assetlinks-spec.md §4.1–4.2).
/// Any malformed or empty field discards the whole list (`.dropped`): Android then falls back to the
/// manifest, which usually opens *more* paths than the rules meant to.
enum DynamicRulesReader {
    static let ruleKeys = ["/", "?", "#", "exclude", "comments"]

    static func readExtensions(_ value: JSONValue, relations: [String], target: StatementTarget?, _ path: JSONPath,
                               _ context: inout ReadContext) -> DynamicRuleList? {
        guard case .object(let members) = value.kind else {
            context.report(AndroidFinding.dynamicRulesInvalid, path, value.position,
                "\"relation_extensions\" is \(value.typeDescription), not an object; Android ignores any dynamic rules in it.",
                hint: "Write \"relation_extensions\": {\"delegate_permission/common.handle_all_urls\": {\"dynamic_app_link_components\": […]}}.")
            return .dropped(reason: "relation_extensions is not an object", pointer: path.pointer)
        }
        var rules: DynamicRuleList?
        var seen = Set<String>()
        for member in members where seen.insert(member.key).inserted {
            let memberPath = path.appending(member.key).materialized()
            let isWeb: Bool = if case .web = target { true } else { false }
            if !relations.contains(member.key) || isWeb {
                context.report(AndroidFinding.relationExtensionOrphan, memberPath, member.keyPosition,
                    isWeb ? "An extension on a web target does nothing: dynamic rules apply to apps."
                          : "The extension is keyed by \(JSONStringLiteral.quoted(member.key)), which the statement's \"relation\" does not list; nothing reads it.",
                    hint: "Move it to the statement that grants \(JSONStringLiteral.quoted(member.key)) to the app, or add that relation.")
                continue
            }
            guard member.key == Relation.handleAllURLs else { continue }
            guard case .object(let extensionMembers) = member.value.kind else {
                context.report(AndroidFinding.dynamicRulesInvalid, memberPath, member.value.position,
                    "The handle_all_urls extension is \(member.value.typeDescription), not an object; Android discards its dynamic rules.",
                    hint: "Write {\"dynamic_app_link_components\": […]}.")
                rules = .dropped(reason: "the handle_all_urls extension is not an object", pointer: memberPath.pointer)
                continue
            }
            context.reportUnknownKeys(extensionMembers, known: ["dynamic_app_link_components"], at: memberPath,
                                      what: "The handle_all_urls extension")
            if let components = member.value.member("dynamic_app_link_components") {
                rules = readComponents(components.value, memberPath.appending("dynamic_app_link_components"), &context)
            }
        }
        return rules
    }

    /// The component list; every defect is reported, and any defect drops the list.
    static func readComponents(_ value: JSONValue, _ path: JSONPath, _ context: inout ReadContext) -> DynamicRuleList {
        let listPath = path.materialized()
        var firstDefect: (reason: String, pointer: String)?
        func defect(_ at: JSONPath, _ position: TextPosition, _ problem: String, hint: String, _ context: inout ReadContext) {
            context.report(AndroidFinding.dynamicRulesInvalid, at, position,
                problem + "; Android discards every dynamic rule of this app and the manifest alone decides.", hint: hint)
            if firstDefect == nil { firstDefect = (problem, at.pointer) }
        }
        guard case .array(let items) = value.kind else {
            defect(listPath, value.position, "\"dynamic_app_link_components\" is \(value.typeDescription), not an array",
                   hint: "Write an array of rules such as [{\"/\": \"/shop/*\"}].", &context)
            return .dropped(reason: firstDefect?.reason ?? "", pointer: listPath.pointer)
        }
        if items.isEmpty {
            defect(listPath, value.position, "\"dynamic_app_link_components\" is empty",
                   hint: "Remove the key, or list the rules; to open every path write [{\"/\": \"*\"}].", &context)
        }
        var rules: [DynamicRule] = []
        for (index, item) in items.enumerated() {
            let rulePath = listPath.appending(index).materialized()
            guard case .object(let members) = item.kind else {
                defect(rulePath, item.position, "Rule \(index + 1) is \(item.typeDescription), not an object",
                       hint: "Write each rule as an object such as {\"/\": \"/path/*\"}.", &context)
                continue
            }
            var rule = DynamicRule(pointer: rulePath.pointer, line: item.position.line, column: item.position.column)
            for (key, optionalString) in [("/", \DynamicRule.path), ("#", \DynamicRule.fragment), ("comments", \DynamicRule.comments)] {
                guard let member = item.member(key) else { continue }
                let keyPath = rulePath.appending(key)
                guard let text = member.value.stringValue else {
                    defect(keyPath, member.value.position, "The \"\(key)\" of rule \(index + 1) is \(member.value.typeDescription), not a string",
                           hint: "Write a pattern string such as \"/shop/*\".", &context)
                    continue
                }
                if text.isEmpty && key != "comments" {
                    defect(keyPath, member.value.position, "The \"\(key)\" of rule \(index + 1) is empty",
                           hint: "Write \"*\" to match anything, or remove the key.", &context)
                    continue
                }
                rule[keyPath: optionalString] = text
            }
            if let query = item.member("?") {
                let queryPath = rulePath.appending("?")
                if case .object(let entries) = query.value.kind, !entries.isEmpty {
                    var seen = Set<String>()
                    for entry in entries where seen.insert(entry.key).inserted {
                        let entryPath = queryPath.appending(entry.key)
                        if entry.key.isEmpty {
                            defect(entryPath, entry.keyPosition, "Rule \(index + 1) has a query entry with an empty name",
                                   hint: "Name the query parameter.", &context)
                        } else if let value = query.value.member(entry.key)?.value.stringValue, !value.isEmpty {
                            rule.query.append(QueryEntry(name: entry.key, value: value))
                        } else {
                            defect(entryPath, entry.value.position,
                                   "The query entry \(JSONStringLiteral.quoted(entry.key)) of rule \(index + 1) is \(entry.value.stringValue == nil ? entry.value.typeDescription : "empty"), not a pattern string",
                                   hint: "Write a pattern such as \"*\" (any value) or \"?*\" (a non-empty value).", &context)
                        }
                    }
                } else {
                    defect(queryPath, query.value.position,
                           "The \"?\" of rule \(index + 1) is \(query.value.typeDescription == "an object" ? "empty" : query.value.typeDescription)",
                           hint: "Write an object of parameter patterns such as {\"ref\": \"*\"}.", &context)
                }
            }
            if let exclude = item.member("exclude") {
                if case .bool(let flag) = exclude.value.kind {
                    rule.exclude = flag
                } else {
                    defect(rulePath.appending("exclude"), exclude.value.position,
                           "The \"exclude\" of rule \(index + 1) is \(exclude.value.typeDescription), not true or false",
                           hint: "Write \"exclude\": true (without quotes).", &context)
                }
            }
            context.reportUnknownKeys(members, known: ruleKeys, at: rulePath, what: "Rule \(index + 1)",
                                      definition: AndroidFinding.dynamicRuleUnknownKey,
                                      aliases: ["comment": "comments", "path": "/", "paths": "/", "query": "?", "fragment": "#"])
            if rule.isEmpty {
                context.report(AndroidFinding.dynamicRuleEmpty, rulePath, item.position,
                    "Rule \(index + 1) has no \"/\", \"?\" or \"#\", so it matches no URL.",
                    hint: "Add a pattern, e.g. {\"/\": \"*\"} to match every path.")
            }
            rules.append(rule)
        }
        if let firstDefect { return .dropped(reason: firstDefect.reason, pointer: firstDefect.pointer) }
        return .rules(rules)
    }
}
