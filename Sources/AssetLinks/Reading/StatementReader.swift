import LocatedJSON
import TextEncoding
import Vocabulary

/// Reads one element of the list: a direct statement, an include, or something Google drops.
/// Every defect is reported; one that makes Google drop the statement makes the outcome `.dropped`.
enum StatementReader {
    enum Outcome {
        case statement(Statement)
        case include(IncludeDirective)
        case dropped
    }

    static let statementKeys = ["relation", "target", "relation_extensions"]

    static func read(_ value: JSONValue, index: Int, _ context: inout ReadContext) -> Outcome {
        let path = JSONPath.root.appending(index).materialized()
        guard case .object(let members) = value.kind else {
            context.report(AndroidFinding.statementNotObject, path, value.position,
                "Statement \(index + 1) is \(value.typeDescription), not an object; Google drops it.",
                hint: "Write each statement as {\"relation\": […], \"target\": {…}}.")
            return .dropped
        }
        if let include = value.member("include") {
            return readInclude(include, value, index: index, path, &context)
        }
        var valid = true
        let relations = readRelations(value, path, &context, valid: &valid)
        let target = TargetReader.read(value, path, &context, valid: &valid)
        context.reportUnknownKeys(members, known: statementKeys, at: path, what: "Statement \(index + 1)",
                                  aliases: ["relations": "relation", "targets": "target", "relationExtensions": "relation_extensions"])
        var dynamicRules: DynamicRuleList?
        if let extensions = value.member("relation_extensions") {
            dynamicRules = DynamicRulesReader.readExtensions(extensions.value, relations: relations ?? [], target: target,
                                                            path.appending("relation_extensions"), &context)
        }
        guard valid, let relations, let target else { return .dropped }
        return .statement(Statement(index: index, relations: relations, target: target, dynamicRules: dynamicRules))
    }

    // MARK: Relations

    private static func readRelations(_ statement: JSONValue, _ path: JSONPath, _ context: inout ReadContext,
                                      valid: inout Bool) -> [String]? {
        guard let member = context.required("relation", of: statement, path, valid: &valid, AndroidFinding.relationMissing,
            "The statement has no \"relation\"; Google drops it.",
            hint: "Add \"relation\": [\"delegate_permission/common.handle_all_urls\"].") else { return nil }
        let relationPath = path.appending("relation")
        guard case .array(let items) = member.value.kind else {
            valid = false
            let hint = member.value.stringValue.map { "Write \"relation\": [\(JSONStringLiteral.quoted($0))] — an array, even for one relation." }
                ?? "Write \"relation\" as an array of strings."
            context.report(AndroidFinding.relationMissing, relationPath, member.value.position,
                "\"relation\" is \(member.value.typeDescription), but it must be an array of relation strings; Google drops the statement.",
                hint: hint)
            return nil
        }
        if items.isEmpty {
            context.report(AndroidFinding.relationEmpty, relationPath, member.value.position,
                "\"relation\" is empty, so the statement grants nothing.",
                hint: "Add the relation you mean, e.g. \"delegate_permission/common.handle_all_urls\".")
        }
        var relations: [String] = []
        for (i, item) in items.enumerated() {
            let itemPath = relationPath.appending(i)
            guard let text = item.stringValue else {
                valid = false
                context.report(AndroidFinding.relationMalformed, itemPath, item.position,
                    "Relation \(i + 1) is \(item.typeDescription), not a string; Google drops the statement.",
                    hint: "Write the relation as a string such as \"delegate_permission/common.handle_all_urls\".")
                continue
            }
            if let problem = relationProblem(text) {
                valid = false
                context.report(AndroidFinding.relationMalformed, itemPath, item.position,
                    "The relation \(JSONStringLiteral.quoted(text)) \(problem); Google drops the statement.",
                    hint: "A relation is kind/detail in lower case without spaces, e.g. \"delegate_permission/common.handle_all_urls\".")
                continue
            }
            relations.append(text)
            if !Relation.known.contains(text) {
                let suggestion = Relation.known.min { distance(text, $0) < distance(text, $1) }
                    .flatMap { distance(text, $0) <= 2 ? $0 : nil }
                if let suggestion {
                    context.report(AndroidFinding.relationUnknown, itemPath, item.position,
                        "The relation \(JSONStringLiteral.quoted(text)) is not one Android reads. Did you mean \(JSONStringLiteral.quoted(suggestion))?",
                        hint: "Fix the spelling: relation strings are compared exactly.", severity: .warning)
                } else {
                    context.report(AndroidFinding.relationUnknown, itemPath, item.position,
                        "The relation \(JSONStringLiteral.quoted(text)) is valid, but no Android feature reads it (handle_all_urls, get_login_creds, use_as_origin do).",
                        hint: "Keep it if your own code queries it; otherwise check the spelling.")
                }
            }
        }
        return relations
    }

    /// Why `text` is not `kind/detail` with kind `[a-z0-9_]+` and detail `[a-z0-9_.]+` (G-SPEC, G-COMPAT).
    static func relationProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        let slashes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "/") }
        guard slashes.count == 1, let slash = slashes.first else {
            return slashes.isEmpty ? "has no \"/\" between kind and detail" : "has more than one \"/\""
        }
        let kind = bytes[..<slash], detail = bytes[(slash + 1)...]
        if kind.isEmpty { return "has no kind before the \"/\"" }
        if detail.isEmpty { return "has no detail after the \"/\"" }
        func allowed(_ b: UInt8, dot: Bool) -> Bool {
            (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == UInt8(ascii: "_") || (dot && b == UInt8(ascii: "."))
        }
        if !kind.allSatisfy({ allowed($0, dot: false) }) { return "has a kind with characters other than a-z, 0-9 and _" }
        if !detail.allSatisfy({ allowed($0, dot: true) }) { return "has a detail with characters other than a-z, 0-9, _ and ." }
        return nil
    }

    private static func distance(_ a: String, _ b: String) -> Int {
        KeySuggestion.editDistance(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    // MARK: Includes

    private static func readInclude(_ include: JSONMember, _ statement: JSONValue, index: Int, _ path: JSONPath,
                                    _ context: inout ReadContext) -> Outcome {
        let includePath = path.appending("include")
        var valid = true
        let mixed = ["relation", "target"].filter { statement.member($0) != nil }
        if !mixed.isEmpty {
            valid = false
            context.report(AndroidFinding.includeWithTarget, path, statement.position,
                "Statement \(index + 1) has \"include\" and \(mixed.map { "\"\($0)\"" }.joined(separator: " and ")); Google drops it (AOSP's verifier would follow the include and ignore the rest).",
                hint: "Split it into an include statement and a separate statement.")
        }
        guard let url = include.value.stringValue else {
            context.report(AndroidFinding.includeURLInvalid, includePath, include.value.position,
                "\"include\" is \(include.value.typeDescription), not a URL string; Google drops the statement.",
                hint: "Write \"include\": \"https://example.com/includes/assetlinks.json\".")
            return .dropped
        }
        switch WebOrigin.parse(url, siteOnly: false) {
        case .failure(let problem):
            context.report(AndroidFinding.includeURLInvalid, includePath, include.value.position,
                "The include URL \(JSONStringLiteral.quoted(url)) \(problem.phrase); Google drops the statement.",
                hint: "Use an absolute https URL.")
            return .dropped
        case .success(let origin):
            if origin.scheme == "http" && context.servedFrom != .http {
                context.report(AndroidFinding.includeInsecure, includePath, include.value.position,
                    "The include \(JSONStringLiteral.quoted(url)) is plain http in a file served securely; Google refuses it and drops the statement.",
                    hint: "Serve the include file over https and write its https URL.")
                return .dropped
            }
        }
        guard valid else { return .dropped }
        context.report(AndroidFinding.includeStatement, includePath, include.value.position,
            "The list includes \(url); its statements count as if written here (validate that file too).")
        return .include(IncludeDirective(index: index, url: url))
    }
}
